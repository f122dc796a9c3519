import { and, asc, eq, sql, type SQL } from 'drizzle-orm';
import type { Queryable } from '../../db/client.js';
import { isAnyUuidOf } from '../../db/any-of.js';
import { archiveItems } from '../../db/schema/archive-items.js';
import { dicomInstances, dicomSeries, studies } from '../../db/schema/studies.js';
import { users } from '../../db/schema/users.js';

/** An item as a download lists it: where its file lies and, for a study, what its DICOMDIR says. */
export interface DownloadItemRow {
  id: string;
  kind: 'image' | 'study';
  patientId: string;
  storageKey: string;
  contentType: string;
  size: number;
  createdAt: Date;
  study: {
    studyInstanceUid: string;
    studyDate: string | null;
    studyTime: string;
    studyDescription: string;
    accessionNumber: string;
    studyId: string;
    patientNameInFile: string;
    patientIdInFile: string;
    patientBirthDateInFile: string | null;
    patientSexInFile: string;
  } | null;
}

const ITEM_COLUMNS = {
  id: archiveItems.id,
  kind: archiveItems.kind,
  patientId: archiveItems.patientId,
  storageKey: archiveItems.storageKey,
  contentType: archiveItems.contentType,
  size: archiveItems.size,
  createdAt: archiveItems.createdAt,
  studyInstanceUid: studies.studyInstanceUid,
  studyDate: studies.studyDate,
  studyTime: studies.studyTime,
  studyDescription: studies.studyDescription,
  accessionNumber: studies.accessionNumber,
  studyId: studies.studyId,
  patientNameInFile: studies.patientNameInFile,
  patientIdInFile: studies.patientIdInFile,
  patientBirthDateInFile: studies.patientBirthDateInFile,
  patientSexInFile: studies.patientSexInFile,
};

/**
 * Items filed under a patient (never one waiting in an Incoming list), oldest first so that a
 * ZIP of the same records always lists them in the same order; `where` narrows them.
 */
async function selectItems(db: Queryable, where: SQL): Promise<DownloadItemRow[]> {
  const rows = await db
    .select(ITEM_COLUMNS)
    .from(archiveItems)
    .leftJoin(studies, eq(studies.itemId, archiveItems.id))
    .where(and(sql`${archiveItems.patientId} is not null`, where))
    .orderBy(asc(archiveItems.createdAt), asc(archiveItems.id));
  return rows.map((row) => ({
    id: row.id,
    kind: row.kind,
    patientId: row.patientId!,
    storageKey: row.storageKey,
    contentType: row.contentType,
    size: row.size,
    createdAt: row.createdAt,
    study:
      row.kind === 'study' && row.studyInstanceUid !== null
        ? {
            studyInstanceUid: row.studyInstanceUid,
            studyDate: row.studyDate,
            studyTime: row.studyTime ?? '',
            studyDescription: row.studyDescription ?? '',
            accessionNumber: row.accessionNumber ?? '',
            studyId: row.studyId ?? '',
            patientNameInFile: row.patientNameInFile ?? '',
            patientIdInFile: row.patientIdInFile ?? '',
            patientBirthDateInFile: row.patientBirthDateInFile,
            patientSexInFile: row.patientSexInFile ?? '',
          }
        : null,
  }));
}

export async function findItem(db: Queryable, itemId: string): Promise<DownloadItemRow | undefined> {
  return (await selectItems(db, eq(archiveItems.id, itemId)))[0];
}

/** The patient's items that `readable` (the access module's item filter) lets the caller read. */
export function listItemsOfPatient(
  db: Queryable,
  patientId: string,
  readable: SQL,
): Promise<DownloadItemRow[]> {
  return selectItems(db, and(eq(archiveItems.patientId, patientId), readable)!);
}

/** A stored instance as the ZIP and its DICOMDIR need it (no metadata: it can be large). */
export interface DownloadInstanceRow {
  itemId: string;
  seriesInstanceUid: string;
  modality: string;
  seriesNumber: number | null;
  seriesDescription: string;
  sopInstanceUid: string;
  sopClassUid: string;
  transferSyntaxUid: string;
  instanceNumber: number | null;
  storageKey: string;
  size: number;
}

/** The instances of these studies, in a stable order: by series number, then instance number, then UIDs. */
export function listInstancesOfStudies(
  db: Queryable,
  itemIds: readonly string[],
): Promise<DownloadInstanceRow[]> {
  if (itemIds.length === 0) {
    return Promise.resolve([]);
  }
  return db
    .select({
      itemId: dicomInstances.itemId,
      seriesInstanceUid: dicomSeries.seriesInstanceUid,
      modality: dicomSeries.modality,
      seriesNumber: dicomSeries.seriesNumber,
      seriesDescription: dicomSeries.seriesDescription,
      sopInstanceUid: dicomInstances.sopInstanceUid,
      sopClassUid: dicomInstances.sopClassUid,
      transferSyntaxUid: dicomInstances.transferSyntaxUid,
      instanceNumber: dicomInstances.instanceNumber,
      storageKey: dicomInstances.storageKey,
      size: dicomInstances.size,
    })
    .from(dicomInstances)
    .innerJoin(dicomSeries, eq(dicomSeries.id, dicomInstances.seriesId))
    .where(isAnyUuidOf(dicomInstances.itemId, itemIds))
    .orderBy(
      asc(dicomInstances.itemId),
      sql`${dicomSeries.seriesNumber} asc nulls last`,
      asc(dicomSeries.seriesInstanceUid),
      sql`${dicomInstances.instanceNumber} asc nulls last`,
      asc(dicomInstances.sopInstanceUid),
    );
}

export async function findPatient(
  db: Queryable,
  patientId: string,
): Promise<{ firstName: string; lastName: string; dob: string } | undefined> {
  const [row] = await db
    .select({ firstName: users.firstName, lastName: users.lastName, dob: users.dob })
    .from(users)
    .where(eq(users.id, patientId));
  return row;
}
