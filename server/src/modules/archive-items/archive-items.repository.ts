import { and, asc, count, desc, eq, inArray, sql, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { KeyImage } from '@ra/shared';
import type { Queryable } from '../../db/client.js';
import { isAnyUuidOf } from '../../db/any-of.js';
import { itemNotes, archiveItems } from '../../db/schema/archive-items.js';
import { studies, dicomInstances, dicomSeries } from '../../db/schema/studies.js';
import { users } from '../../db/schema/users.js';
import { STUDY_SUMMARY_COLUMNS } from './study-summary.js';

const patient = alias(users, 'patient');
const uploader = alias(users, 'uploader');
const author = alias(users, 'author');
const recommended = alias(users, 'recommended');

const IMAGE_COLUMNS = {
  id: archiveItems.id,
  kind: archiveItems.kind,
  // The patient joined (inner join): an item waiting in an Incoming list has none and is never listed here.
  patientId: patient.id,
  storageKey: archiveItems.storageKey,
  thumbnailKey: archiveItems.thumbnailKey,
  contentType: archiveItems.contentType,
  width: archiveItems.width,
  height: archiveItems.height,
  createdAt: archiveItems.createdAt,
  patientFirstName: patient.firstName,
  patientLastName: patient.lastName,
  uploaderTitle: uploader.title,
  uploaderFirstName: uploader.firstName,
  uploaderLastName: uploader.lastName,
  /** Null unless the item is a DICOM study. */
  study: STUDY_SUMMARY_COLUMNS,
};

function selectImages(db: Queryable) {
  return db
    .select(IMAGE_COLUMNS)
    .from(archiveItems)
    .innerJoin(patient, eq(patient.id, archiveItems.patientId))
    .innerJoin(uploader, eq(uploader.id, archiveItems.uploaderId))
    .leftJoin(studies, eq(studies.itemId, archiveItems.id));
}

export type ImageRow = Awaited<ReturnType<typeof findImage>> & {};

export async function findImage(db: Queryable, imageId: string) {
  const [row] = await selectImages(db).where(eq(archiveItems.id, imageId));
  return row;
}

/** The items among `ids` that `readable` (the access policy's condition) lets the caller see. */
export function findImagesByIds(db: Queryable, ids: string[], readable: SQL) {
  return selectImages(db).where(and(isAnyUuidOf(archiveItems.id, ids), readable));
}

/** The author's notes among `itemIds`: whether each says something (an emptied note says nothing). */
export async function notesOfAuthor(db: Queryable, authorId: string, itemIds: string[]) {
  const rows = await db
    .select({ itemId: itemNotes.itemId, isWritten: sql<boolean>`${itemNotes.note} <> ''` })
    .from(itemNotes)
    .where(and(eq(itemNotes.authorId, authorId), isAnyUuidOf(itemNotes.itemId, itemIds)));
  return new Map(rows.map((row) => [row.itemId, row.isWritten]));
}

/** Everyone who has a note on the item, written or emptied (the authors of the documents the archive writes). */
export async function noteAuthorsOf(db: Queryable, itemId: string): Promise<string[]> {
  const rows = await db
    .select({ authorId: itemNotes.authorId })
    .from(itemNotes)
    .where(eq(itemNotes.itemId, itemId));
  return rows.map((row) => row.authorId);
}

/*
 * The list queries take `readable`, the access policy's condition on image rows (the images the
 * caller may see); they never decide it themselves.
 */

/** A patient's archive items, newest first; `after` is the previous page's last (createdAt, id). */
export function listImagesOfPatient(
  db: Queryable,
  patientId: string,
  readable: SQL,
  page: { limit: number; after?: [string, string] },
) {
  const after = page.after
    ? sql`(${archiveItems.createdAt}, ${archiveItems.id}) < (${page.after[0]}::timestamptz, ${page.after[1]}::uuid)`
    : undefined;
  return selectImages(db)
    .where(and(eq(archiveItems.patientId, patientId), after, readable))
    .orderBy(desc(archiveItems.createdAt), desc(archiveItems.id))
    .limit(page.limit);
}

/**
 * The `perPatient` newest images of each patient, in one query: for each patient the index on
 * (patient, created, id) yields just those rows, however large their archives.
 */
export function listNewestImagesOfPatients(
  db: Queryable,
  patientIds: string[],
  perPatient: number,
  readable: SQL,
) {
  const newest = db
    .select({ id: archiveItems.id })
    .from(archiveItems)
    .where(and(eq(archiveItems.patientId, patient.id), readable))
    .orderBy(desc(archiveItems.createdAt), desc(archiveItems.id))
    .limit(perPatient)
    .as('newest');
  return db
    .select(IMAGE_COLUMNS)
    .from(patient)
    .crossJoinLateral(newest)
    .innerJoin(archiveItems, eq(archiveItems.id, newest.id))
    .innerJoin(uploader, eq(uploader.id, archiveItems.uploaderId))
    .leftJoin(studies, eq(studies.itemId, archiveItems.id))
    .where(isAnyUuidOf(patient.id, patientIds))
    .orderBy(desc(archiveItems.createdAt), desc(archiveItems.id));
}

/** The query behind countImagesOfPatients (the bench explains it). */
export function selectImageCounts(db: Queryable, patientIds: string[], readable: SQL) {
  return db
    .select({ patientId: archiveItems.patientId, total: count() })
    .from(archiveItems)
    .where(and(isAnyUuidOf(archiveItems.patientId, patientIds), readable))
    .groupBy(archiveItems.patientId);
}

export async function countImagesOfPatients(db: Queryable, patientIds: string[], readable: SQL) {
  const rows = await selectImageCounts(db, patientIds, readable);
  // Grouped by patient among `patientIds`: never an item without one.
  return new Map(rows.map((row) => [row.patientId!, row.total]));
}

/**
 * Notes of the images with their authors, those `readable` lets the caller see (access
 * `noteReadFilter`): physicians first, then radiologists by time.
 */
export function listNotesOfImages(db: Queryable, imageIds: string[], readable: SQL) {
  return db
    .select({
      imageId: itemNotes.itemId,
      authorId: itemNotes.authorId,
      role: itemNotes.authorRole,
      note: itemNotes.note,
      keyImages: itemNotes.keyImages,
      updatedAt: itemNotes.updatedAt,
      authorTitle: author.title,
      authorFirstName: author.firstName,
      authorLastName: author.lastName,
      recommendedTitle: recommended.title,
      recommendedFirstName: recommended.firstName,
      recommendedLastName: recommended.lastName,
    })
    .from(itemNotes)
    .innerJoin(author, eq(author.id, itemNotes.authorId))
    .leftJoin(recommended, eq(recommended.id, itemNotes.recommendationId))
    .where(and(isAnyUuidOf(itemNotes.itemId, imageIds), readable))
    .orderBy(
      sql`case when ${itemNotes.authorRole} = 'PHYSICIAN' then 0 else 1 end`,
      asc(itemNotes.createdAt),
      asc(itemNotes.id),
    );
}

export async function insertImage(db: Queryable, image: typeof archiveItems.$inferInsert) {
  const [row] = await db.insert(archiveItems).values(image).returning({ id: archiveItems.id });
  return row!;
}

/** Writes the author's one note on an image; returns whether it existed before. */
export async function upsertNote(
  db: Queryable,
  note: {
    itemId: string;
    authorId: string;
    authorRole: 'PHYSICIAN' | 'RADIOLOGIST';
    note: string;
    recommendationId?: string | null;
    keyImages?: KeyImage[];
  },
): Promise<{ isNew: boolean }> {
  const [row] = await db
    .insert(itemNotes)
    .values(note)
    .onConflictDoUpdate({
      target: [itemNotes.itemId, itemNotes.authorId],
      // Without key images, the stored ones stay.
      set: { note: note.note, ...(note.keyImages && { keyImages: note.keyImages }), updatedAt: new Date() },
    })
    .returning({ createdAt: itemNotes.createdAt, updatedAt: itemNotes.updatedAt });
  return { isNew: row!.createdAt.getTime() === row!.updatedAt.getTime() };
}

export async function setThumbnail(db: Queryable, imageId: string, thumbnailKey: string) {
  await db.update(archiveItems).set({ thumbnailKey }).where(eq(archiveItems.id, imageId));
}

/** Items still waiting for a thumbnail; studies whose preview cannot be made say why instead. */
export async function listImagesWithoutThumbnail(db: Queryable, limit: number) {
  return db
    .select({ id: archiveItems.id, kind: archiveItems.kind })
    .from(archiveItems)
    .leftJoin(studies, eq(studies.itemId, archiveItems.id))
    .where(sql`${archiveItems.thumbnailKey} is null and ${studies.previewNote} is null`)
    .limit(limit);
}

/** Of these SOP Instance UIDs, those filed in the study `itemId`, with their series and frame count. */
export function findInstancesOfStudy(db: Queryable, itemId: string, sopUids: string[]) {
  return db
    .select({
      sopInstanceUid: dicomInstances.sopInstanceUid,
      seriesInstanceUid: dicomSeries.seriesInstanceUid,
      numberOfFrames: dicomInstances.numberOfFrames,
    })
    .from(dicomInstances)
    .innerJoin(dicomSeries, eq(dicomSeries.id, dicomInstances.seriesId))
    .where(and(eq(dicomInstances.itemId, itemId), inArray(dicomInstances.sopInstanceUid, sopUids)));
}

/** Where each of these instances of the studies `itemIds` is: its series number and modality, its number. */
export function findKeyImagePlaces(db: Queryable, itemIds: string[], sopUids: string[]) {
  return db
    .select({
      itemId: dicomInstances.itemId,
      sopInstanceUid: dicomInstances.sopInstanceUid,
      instanceNumber: dicomInstances.instanceNumber,
      seriesNumber: dicomSeries.seriesNumber,
      modality: dicomSeries.modality,
    })
    .from(dicomInstances)
    .innerJoin(dicomSeries, eq(dicomSeries.id, dicomInstances.seriesId))
    .where(and(isAnyUuidOf(dicomInstances.itemId, itemIds), inArray(dicomInstances.sopInstanceUid, sopUids)));
}

/** The author's note on the item, with its key images, the item's kind and patient, and the author's name. */
export async function findNoteOfAuthor(db: Queryable, itemId: string, authorId: string) {
  const [row] = await db
    .select({
      kind: archiveItems.kind,
      patientId: archiveItems.patientId,
      authorRole: itemNotes.authorRole,
      note: itemNotes.note,
      keyImages: itemNotes.keyImages,
      authorFirstName: author.firstName,
      authorLastName: author.lastName,
    })
    .from(itemNotes)
    .innerJoin(archiveItems, eq(archiveItems.id, itemNotes.itemId))
    .innerJoin(author, eq(author.id, itemNotes.authorId))
    .where(and(eq(itemNotes.itemId, itemId), eq(itemNotes.authorId, authorId)));
  return row;
}
