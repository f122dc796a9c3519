import crypto from 'node:crypto';
import { z } from 'zod';
import {
  PATHS,
  type Image,
  type ImagePage,
  type ItemSummary,
  physicianNoteOf,
  type uploadImageBodySchema,
} from '@ra/shared';
import type { AppContext } from '../../context.js';
import { AppError, InvalidInput } from '../../lib/errors.js';
import type { Queryable } from '../../db/client.js';
import type { archiveItems } from '../../db/schema/archive-items.js';
import { decodeCursor, encodeCursor } from '../../lib/cursor.js';
import { groupedKey } from '../../db/shared-cache.js';
import { expiryFor } from '../storage/index.js';
import type { Actor } from '../../lib/actor.js';
import { itemReadFilter, may, noteReadFilter, requireListOf, requirePermitted } from '../access/index.js';
import { auditChange, auditReads } from '../audit/index.js';
import { notify } from '../notifications/index.js';
import { extensionOfMime } from '../storage/index.js';
import { claimUpload, forgetUploadFiles, moveIntoStorage } from '../uploads/index.js';
import { findRadiologist } from '../users/index.js';

import { THUMBNAIL_JOB } from './thumbnail.job.js';
import { keyImagePlaceKey, presentImages } from './item-presenter.js';
import * as repo from './archive-items.repository.js';

/** Rows to wire images, with their notes, in two queries whatever the count. */
async function presentImageRows(ctx: AppContext, user: Actor, rows: repo.ImageRow[]): Promise<Image[]> {
  const notes =
    rows.length > 0
      ? await repo.listNotesOfImages(
          ctx.db,
          rows.map((row) => row.id),
          noteReadFilter(user),
        )
      : [];
  const keyImageUids = notes.flatMap((note) => note.keyImages.map((keyImage) => keyImage.sop_instance_uid));
  const places =
    keyImageUids.length > 0
      ? await repo.findKeyImagePlaces(
          ctx.db,
          [...new Set(notes.map((note) => note.imageId))],
          [...new Set(keyImageUids)],
        )
      : [];
  return presentImages(
    ctx,
    user,
    rows,
    notes,
    new Map(places.map((place) => [keyImagePlaceKey(place.itemId, place.sopInstanceUid), place])),
  );
}

/**
 * A page of a patient's archive as the caller may see it. Pages are cached per viewer until any
 * process changes the patient's archive or access to it (database triggers announce it on the
 * change feed) or their URLs' expiry step passes; every read is audited all the same.
 */
export async function listImages(
  ctx: AppContext,
  user: Actor,
  patientId: string,
  page: { limit: number; cursor?: string },
  ip: string,
): Promise<ImagePage> {
  const key = groupedKey(
    patientId,
    user.id,
    user.role,
    user.emailVerified,
    page.limit,
    page.cursor ?? '',
    expiryFor(Date.now()),
  );
  const result = (await ctx.imagePages.getOrLoad(key, () => loadImagePage(ctx, user, patientId, page)))!;
  await auditReads(ctx, [
    { actorId: user.id, patientId, action: 'read', recordType: 'image-list', recordId: patientId, ip },
  ]);
  return result;
}

async function loadImagePage(
  ctx: AppContext,
  user: Actor,
  patientId: string,
  page: { limit: number; cursor?: string },
): Promise<ImagePage> {
  await requireListOf(ctx, user, patientId);
  const after = decodeCursor(page.cursor, 2) as [string, string] | undefined;
  // A radiologist may read the patient but sees only the images they were paid for.
  const rows = await repo.listImagesOfPatient(ctx.db, patientId, itemReadFilter(user), {
    limit: page.limit + 1,
    after,
  });
  const pageRows = rows.slice(0, page.limit);
  const last = pageRows.at(-1);
  return {
    images: await presentImageRows(ctx, user, pageRows),
    next_cursor:
      rows.length > page.limit && last ? encodeCursor([last.createdAt.toISOString(), last.id]) : null,
  };
}

async function findReadableImage(ctx: AppContext, user: Actor, imageId: string) {
  await requirePermitted(ctx, user, 'item:read', [imageId]);
  const row = await repo.findImage(ctx.db, imageId);
  if (!row) {
    throw new AppError('NOT_FOUND');
  }
  return row;
}

/**
 * Of each patient's images the caller may see, the `perPatient` newest (as wire images) and the
 * count, in three queries whatever the number of patients.
 */
export async function summarizeImagesOfPatients(
  ctx: AppContext,
  user: Actor,
  patientIds: string[],
  perPatient: number,
): Promise<{ newest: Map<string, Image[]>; counts: Map<string, number> }> {
  if (patientIds.length === 0) {
    return { newest: new Map(), counts: new Map() };
  }
  const readable = itemReadFilter(user);
  const [rows, counts] = await Promise.all([
    repo.listNewestImagesOfPatients(ctx.db, patientIds, perPatient, readable),
    repo.countImagesOfPatients(ctx.db, patientIds, readable),
  ]);
  const images = await presentImageRows(ctx, user, rows);
  const newest = new Map<string, Image[]>();
  rows.forEach((row, index) => {
    newest.set(row.patientId, [...(newest.get(row.patientId) ?? []), images[index]!]);
  });
  return { newest, counts };
}

/** The items among `ids` the caller may read, as wire images with their notes, by id. */
export async function presentItems(ctx: AppContext, user: Actor, ids: string[]): Promise<Map<string, Image>> {
  const rows = ids.length > 0 ? await repo.findImagesByIds(ctx.db, ids, itemReadFilter(user)) : [];
  const images = await presentImageRows(ctx, user, rows);
  return new Map(images.map((image) => [image.uid, image]));
}

/** The items among `ids` the caller may read, summed up as lists name them (invoices, access history). */
export async function summarizeItems(
  ctx: AppContext,
  user: Actor,
  ids: string[],
): Promise<Map<string, ItemSummary>> {
  const items = await presentItems(ctx, user, [...new Set(ids)]);
  return new Map(
    [...items].map(([id, image]) => [
      id,
      {
        kind: image.kind,
        study: image.study,
        createdAt: image.createdAt,
        physician_note: physicianNoteOf(image),
      },
    ]),
  );
}

/** Of `itemIds`, the author's notes: true where the note says something, false where it was emptied. */
export function notesOfAuthor(
  ctx: AppContext,
  authorId: string,
  itemIds: string[],
): Promise<Map<string, boolean>> {
  return itemIds.length > 0
    ? repo.notesOfAuthor(ctx.db, authorId, itemIds)
    : Promise.resolve(new Map<string, boolean>());
}

/** The authors of the item's notes: the people whose SR and KO documents the archive may have written into it. */
export function noteAuthorsOf(ctx: AppContext, itemId: string): Promise<string[]> {
  return repo.noteAuthorsOf(ctx.db, itemId);
}

/**
 * One author's analysis of an item as it stands: their note and key images, with the item's kind
 * and patient and the author's name; undefined when they wrote none. For work done after the note
 * was accepted (the reports module's documents), not for answering a caller.
 */
export function analysisOf(ctx: AppContext, itemId: string, authorId: string) {
  return repo.findNoteOfAuthor(ctx.db, itemId, authorId);
}

/**
 * An item as a share link shows it (shares module, which has checked the link): its file URLs
 * signed for the link, so that each file read is audited with the link as the actor, and none of
 * the notes, analyses or key images written on it. Undefined when the item is gone.
 */
export async function presentItemForLink(
  ctx: AppContext,
  itemId: string,
  linkId: string,
): Promise<Image | undefined> {
  const row = await repo.findImage(ctx.db, itemId);
  return row ? presentImages(ctx, { id: linkId }, [row], [], new Map())[0] : undefined;
}

/** The signed thumbnail URL of an image the caller may see; null while it is being made. */
export async function thumbnailUrlOf(ctx: AppContext, user: Actor, imageId: string): Promise<string | null> {
  const row = await findReadableImage(ctx, user, imageId);
  return row.thumbnailKey
    ? ctx.storage.signedUrl(row.thumbnailKey, { viewerId: user.id, patientId: row.patientId })
    : null;
}
export async function getImage(ctx: AppContext, user: Actor, imageId: string, ip: string): Promise<Image> {
  const row = await findReadableImage(ctx, user, imageId);
  const [image] = await presentImageRows(ctx, user, [row]);
  await auditReads(ctx, [
    { actorId: user.id, patientId: row.patientId, action: 'read', recordType: 'image', recordId: row.id, ip },
  ]);
  return image!;
}

/** Refuses a recommendation that names no radiologist (upload-image and upload-study). */
export async function checkRecommendation(ctx: AppContext, recommendationId: string | null): Promise<void> {
  if (recommendationId && !(await findRadiologist(ctx, recommendationId))) {
    throw new InvalidInput('recommendation', 'The selected radiologist does not exist.');
  }
}

/**
 * Writes a new archive item, image or study, with what every new item brings: the uploader's
 * note, the patient's notification, the reminder to add notes, and the audit row.
 */
/** Who adds an item: its uploader's id, and their role for the note's author. */
export type Uploader = Pick<Actor, 'id' | 'role'>;

export async function recordNewItem(
  tx: Queryable,
  user: Uploader,
  item: Omit<typeof archiveItems.$inferInsert, 'uploaderId'> & { id: string; patientId: string | null },
  note: { notes: string; recommendationId: string | null; ip: string },
): Promise<void> {
  await repo.insertImage(tx, { ...item, uploaderId: user.id });
  if (item.patientId) {
    await announceNewItem(tx, user, { id: item.id, patientId: item.patientId }, note);
  } else {
    // A study received without a patient: nobody is told until it is filed under one.
    await auditChange(tx, {
      actorId: user.id,
      patientId: null,
      action: 'create',
      recordType: 'image',
      recordId: item.id,
      ip: note.ip,
    });
  }
}

/**
 * What filing an item under a patient does besides storing it: the uploader's note, the patient's
 * notification, the uploader's reminder to write a note, and the audit row.
 */
export async function announceNewItem(
  tx: Queryable,
  user: Uploader,
  item: { id: string; patientId: string },
  note: { notes: string; recommendationId: string | null; ip: string },
): Promise<void> {
  if (note.notes || note.recommendationId) {
    await repo.upsertNote(tx, {
      itemId: item.id,
      authorId: user.id,
      authorRole: user.role === 'RADIOLOGIST' ? 'RADIOLOGIST' : 'PHYSICIAN',
      note: note.notes,
      recommendationId: note.recommendationId,
    });
  }
  await notify(tx, {
    userId: item.patientId,
    message: 'You have a new image from your physician.',
    to: PATHS.imageLibrary,
  });
  if (!note.notes) {
    await notify(tx, {
      userId: user.id,
      message: "Don't forget to add your notes to your patient's image.",
      to: PATHS.patients,
    });
  }
  await auditChange(tx, {
    actorId: user.id,
    patientId: item.patientId,
    action: 'create',
    recordType: 'image',
    recordId: item.id,
    ip: note.ip,
  });
}

export async function uploadImage(
  ctx: AppContext,
  user: Actor,
  body: z.output<typeof uploadImageBodySchema>,
  ip: string,
): Promise<string> {
  if (!(await may(ctx, user, 'item:store', body.patient))) {
    throw new AppError('NOT_FOUND');
  }
  const recommendationId = body.recommendation || null;
  await checkRecommendation(ctx, recommendationId);

  // Claim first (one short statement), then move the bytes, then write the records in one
  // transaction: no transaction stays open while a large file moves.
  const claimed = await claimUpload(ctx, ctx.db, {
    url: body.url,
    userId: user.id,
    purpose: 'image',
    field: 'url',
  });
  const imageId = crypto.randomUUID();
  const storageKey = `images/${imageId}.${extensionOfMime(claimed.contentType)}`;
  const upload = await moveIntoStorage(ctx, claimed, storageKey, ctx.config.uploads.maxImagePixels);
  try {
    await ctx.db.transaction(async (tx) => {
      await recordNewItem(
        tx,
        user,
        {
          id: imageId,
          patientId: body.patient,
          storageKey,
          contentType: upload.contentType,
          filename: upload.filename,
          size: upload.size,
          width: upload.width,
          height: upload.height,
        },
        { notes: body.notes, recommendationId, ip },
      );
    });
  } catch (err) {
    await ctx.storage.delete(storageKey);
    throw err;
  }
  await forgetUploadFiles(ctx, upload.id);
  // After the commit; the thumbnail sweep catches an image whose job was never queued.
  await ctx.jobs.sendAfterCommit(THUMBNAIL_JOB, { imageId }, { singletonKey: imageId });
  return imageId;
}

/** Items (images and studies) that still lack a thumbnail, for the sweep that queues them again. */
export function itemsWithoutThumbnail(db: Queryable, limit: number) {
  return repo.listImagesWithoutThumbnail(db, limit);
}
