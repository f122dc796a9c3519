import { and, eq, inArray, notInArray, sql } from 'drizzle-orm';
import type { Queryable } from '../../db/client.js';
import { isAnyUuidOf } from '../../db/any-of.js';
import { archiveItems } from '../../db/schema/archive-items.js';
import { dicomInstances, dicomSeries, studies } from '../../db/schema/studies.js';
import { users } from '../../db/schema/users.js';

/** A study as the filing finds it (FILED_STUDY's columns). */
export interface FiledStudyRow {
  itemId: string;
  studyInstanceUid: string;
  patientId: string | null;
  receiverId: string | null;
}

const FILED_STUDY = {
  itemId: studies.itemId,
  studyInstanceUid: studies.studyInstanceUid,
  patientId: archiveItems.patientId,
  receiverId: archiveItems.receiverId,
};

/**
 * The studies of these Study Instance UIDs in one namespace (a patient, or a receiver's Incoming
 * list: UIDs are unique there and nowhere else); a UID not filed there has no row.
 */
export async function findStudiesIn(db: Queryable, namespaceId: string, studyUids: string[]) {
  if (studyUids.length === 0) {
    return [];
  }
  return db
    .select(FILED_STUDY)
    .from(studies)
    .innerJoin(archiveItems, eq(archiveItems.id, studies.itemId))
    .where(and(eq(studies.namespaceId, namespaceId), inArray(studies.studyInstanceUid, studyUids)));
}

/** Every study filed under a patient with this Study Instance UID, whoever's: the caller filters. */
export async function findPatientStudiesByUid(db: Queryable, studyUid: string) {
  return db
    .select(FILED_STUDY)
    .from(studies)
    .innerJoin(archiveItems, eq(archiveItems.id, studies.itemId))
    .where(and(eq(studies.studyInstanceUid, studyUid), sql`${archiveItems.patientId} is not null`));
}

/**
 * Holds, until the transaction ends, a lock on one Study Instance UID in one namespace, so that
 * requests filing the same study one after the other see each other's rows.
 */
export async function lockStudyUid(db: Queryable, namespaceId: string, studyUid: string): Promise<void> {
  // The key as file_study_instances (migration 0018) writes it, the namespace in its canonical form.
  await db.execute(
    sql`select pg_advisory_xact_lock(hashtextextended('study:' || ${namespaceId}::uuid::text || ':' || ${studyUid}, 0))`,
  );
}

export async function insertStudy(db: Queryable, study: typeof studies.$inferInsert) {
  await db.insert(studies).values(study);
}

/** Which of these SOP Instance UIDs the namespace (a patient, or an Incoming list) already holds. */
export async function findStoredSops(
  db: Queryable,
  namespaceId: string,
  sopUids: string[],
): Promise<Set<string>> {
  if (sopUids.length === 0) {
    return new Set();
  }
  const rows = await db
    .select({ sopInstanceUid: dicomInstances.sopInstanceUid })
    .from(dicomInstances)
    .innerJoin(studies, eq(studies.itemId, dicomInstances.itemId))
    .where(and(eq(studies.namespaceId, namespaceId), inArray(dicomInstances.sopInstanceUid, sopUids)));
  return new Set(rows.map((row) => row.sopInstanceUid));
}

/** A series a filing may have to make, as its files describe it. */
export type NewSeries = Pick<
  typeof dicomSeries.$inferInsert,
  'seriesInstanceUid' | 'modality' | 'seriesNumber' | 'seriesDescription' | 'bodyPartExamined'
>;

/** A new instance row of a study, as the filing makes it: its series by Series Instance UID. */
export type NewInstance = Omit<
  typeof dicomInstances.$inferInsert,
  'id' | 'itemId' | 'seriesId' | 'createdAt'
> & {
  seriesInstanceUid: string;
};

/** Rows per statement: each carries its metadata, so a statement stays a few megabytes at most. */
export const INSTANCES_PER_STATEMENT = 1000;

/**
 * Why fileInstances failed: the study is no longer the item the caller found (migration 0018), or,
 * with `expected`, the patient is not as the caller found them (migration 0023).
 */
const STUDY_CHANGED_STATE = 'RA409';
/** Why fileInstances with `expected` failed: the instances would take the uploader over their quota. */
const OVER_QUOTA_STATE = 'RA413';

function hasCode(err: unknown, code: string): boolean {
  for (let current: unknown = err; current; current = (current as { cause?: unknown }).cause) {
    if ((current as { code?: unknown }).code === code) {
      return true;
    }
  }
  return false;
}

/** Whether an error is fileInstances finding the study changed, looking through driver wrappers. */
export function isStudyChanged(err: unknown): boolean {
  return hasCode(err, STUDY_CHANGED_STATE);
}

/** Whether an error is fileInstances with `expected` finding the uploader's quota too small. */
export function isOverQuota(err: unknown): boolean {
  return hasCode(err, OVER_QUOTA_STATE);
}

/**
 * What a filing into a known study expects to find, checked in its statement (migration 0023):
 * the patient's name and birth date as the wrong-patient guard read them (null: not checked, the
 * uploader confirmed), and the uploader with the storage quota their stored bytes must stay within.
 */
export interface FilingExpectation {
  patient: PatientDetails | null;
  uploaderId: string;
  quotaBytes: number;
}

/** A patient's name and birth date as filing_state gives them (migration 0019). */
export interface PatientDetails {
  firstName: string;
  lastName: string;
  dob: string;
}

/**
 * Files instances of a study already recorded as `itemId` in one statement (at most
 * INSTANCES_PER_STATEMENT), through the database function file_study_instances (migration 0018):
 * under the study's lock (lockStudyUid), it makes the missing series, inserts the instances and
 * adds what they bring to the figures of their series, the study and the item. An instance another
 * request stored meanwhile (a SOP Instance UID is unique in its study) is skipped and counts
 * nothing; a study no longer filed as `itemId` fails it all (isStudyChanged). `audit` is the
 * change's audit row as the audit module makes it (auditRowOf), written with them. The rows travel
 * as JSON parameters, so the statement text is the same whatever their number. With `expected`
 * (file_known_study_instances, migration 0023), the same statement also checks what the caller
 * did not read first: the patient as expected (else isStudyChanged), the patient's other studies
 * (a SOP Instance UID they hold is skipped) and the uploader's quota (else isOverQuota). Returns the
 * SOP Instance UIDs stored.
 */
export async function fileInstances(
  db: Queryable,
  study: { namespaceId: string; studyInstanceUid: string; itemId: string },
  series: NewSeries[],
  instances: NewInstance[],
  audit?: Record<string, unknown>,
  expected?: FilingExpectation,
): Promise<Set<string>> {
  const seriesRows = series.map((row) => ({
    series_instance_uid: row.seriesInstanceUid,
    modality: row.modality,
    series_number: row.seriesNumber,
    series_description: row.seriesDescription,
    body_part_examined: row.bodyPartExamined,
  }));
  const instanceRows = instances.map((instance) => ({
    series_instance_uid: instance.seriesInstanceUid,
    sop_instance_uid: instance.sopInstanceUid,
    sop_class_uid: instance.sopClassUid,
    transfer_syntax_uid: instance.transferSyntaxUid,
    instance_number: instance.instanceNumber,
    number_of_frames: instance.numberOfFrames ?? 1,
    rows: instance.rows,
    columns: instance.columns,
    is_image: instance.isImage,
    storage_key: instance.storageKey,
    filename: instance.filename ?? '',
    size: instance.size,
    metadata: instance.metadata,
    pixel_data_offset: instance.pixelDataOffset,
    frame_bytes: instance.frameBytes,
    frame_offsets: instance.frameOffsets,
  }));
  const rows = sql`${study.namespaceId}::uuid, ${study.studyInstanceUid}, ${study.itemId}::uuid,
    ${JSON.stringify(seriesRows)}::jsonb, ${JSON.stringify(instanceRows)}::jsonb,
    ${audit ? JSON.stringify(audit) : null}::jsonb`;
  const result = await db.execute(
    expected
      ? sql`select file_known_study_instances(${rows},
          ${expected.patient ? JSON.stringify(expected.patient) : null}::jsonb, ${expected.uploaderId}::uuid,
          ${expected.quotaBytes}::bigint) as sop`
      : sql`select file_study_instances(${rows}) as sop`,
  );
  return new Set((result as { rows: { sop: string }[] }).rows.map((row) => row.sop));
}

/**
 * What filing files under a patient starts from, in one statement (the database function
 * filing_state, migration 0018): the patient's name and birth date (the wrong-patient guard), the
 * studies of these Study Instance UIDs filed for them, and which of these SOP Instance UIDs they
 * hold already (the patient is the namespace).
 */
export async function findFilingState(
  db: Queryable,
  patientId: string,
  uploaderId: string,
  studyUids: string[],
  sopUids: string[],
): Promise<{
  patient: PatientDetails | undefined;
  filed: FiledStudyRow[];
  storedSops: Set<string>;
  uploaderBytes: number;
}> {
  const result = await db.execute(
    sql`select * from filing_state(${patientId}::uuid, ${uploaderId}::uuid, ${sql.param(studyUids)}::text[], ${sql.param(sopUids)}::text[])`,
  );
  const [row] = (
    result as {
      rows: {
        patient_details: PatientDetails | null;
        filed: FiledStudyRow[];
        stored: string[];
        uploader_bytes: string | number;
      }[];
    }
  ).rows;
  return {
    patient: row?.patient_details ?? undefined,
    filed: row?.filed ?? [],
    storedSops: new Set(row?.stored),
    uploaderBytes: Number(row?.uploader_bytes ?? 0),
  };
}

/** The chosen patient's name and birth date, for the wrong-patient guard. */
export async function findPatientDetails(db: Queryable, patientId: string) {
  const [row] = await db
    .select({ firstName: users.firstName, lastName: users.lastName, dob: users.dob })
    .from(users)
    .where(eq(users.id, patientId));
  return row;
}

/** A study's series in reading order, each with its image instances in instance order. */
export async function listSeriesWithImages(db: Queryable, itemId: string) {
  const rows = await db
    .select({
      seriesId: dicomSeries.id,
      seriesNumber: dicomSeries.seriesNumber,
      storageKey: dicomInstances.storageKey,
      size: dicomInstances.size,
      numberOfFrames: dicomInstances.numberOfFrames,
      isImage: dicomInstances.isImage,
      sopClassUid: dicomInstances.sopClassUid,
      rows: dicomInstances.rows,
      columns: dicomInstances.columns,
    })
    .from(dicomSeries)
    .innerJoin(dicomInstances, eq(dicomInstances.seriesId, dicomSeries.id))
    .where(eq(dicomSeries.itemId, itemId))
    .orderBy(
      sql`${dicomSeries.seriesNumber} asc nulls last`,
      dicomSeries.createdAt,
      dicomSeries.seriesInstanceUid,
      sql`${dicomInstances.instanceNumber} asc nulls last`,
      dicomInstances.sopInstanceUid,
    );
  const series = new Map<string, { seriesId: string; instances: typeof rows }>();
  for (const row of rows) {
    const entry = series.get(row.seriesId) ?? { seriesId: row.seriesId, instances: [] };
    entry.instances.push(row);
    series.set(row.seriesId, entry);
  }
  return [...series.values()];
}

export async function setSeriesThumbnail(db: Queryable, seriesId: string, thumbnailKey: string | null) {
  await db.update(dicomSeries).set({ thumbnailKey }).where(eq(dicomSeries.id, seriesId));
}

/** Records the study's preview (the item's file and thumbnail), or why it has none. */
export async function setStudyPreview(
  db: Queryable,
  itemId: string,
  preview: { width: number; height: number; thumbnailKey: string } | { note: string },
) {
  if ('note' in preview) {
    await db.update(studies).set({ previewNote: preview.note }).where(eq(studies.itemId, itemId));
    return;
  }
  await db
    .update(archiveItems)
    .set({ width: preview.width, height: preview.height, thumbnailKey: preview.thumbnailKey })
    .where(eq(archiveItems.id, itemId));
  await db.update(studies).set({ previewNote: null }).where(eq(studies.itemId, itemId));
}

/** A filed study's UID, namespace and patient (null while it waits in an Incoming list). */
export async function findFiledStudy(db: Queryable, itemId: string) {
  const [row] = await db
    .select({
      itemId: studies.itemId,
      studyInstanceUid: studies.studyInstanceUid,
      namespaceId: studies.namespaceId,
      patientId: archiveItems.patientId,
    })
    .from(studies)
    .innerJoin(archiveItems, eq(archiveItems.id, studies.itemId))
    .where(eq(studies.itemId, itemId));
  return row;
}

const INSTANCE_WITH_METADATA = {
  seriesInstanceUid: dicomSeries.seriesInstanceUid,
  sopInstanceUid: dicomInstances.sopInstanceUid,
  sopClassUid: dicomInstances.sopClassUid,
  numberOfFrames: dicomInstances.numberOfFrames,
  metadata: dicomInstances.metadata,
};

/** Of these SOP Instance UIDs, the study's instances, with their series and stored attributes. */
export function findInstancesWithMetadata(db: Queryable, itemId: string, sopUids: string[]) {
  return db
    .select(INSTANCE_WITH_METADATA)
    .from(dicomInstances)
    .innerJoin(dicomSeries, eq(dicomSeries.id, dicomInstances.seriesId))
    .where(and(eq(dicomInstances.itemId, itemId), inArray(dicomInstances.sopInstanceUid, sopUids)));
}

/** One instance of the study, an image if it has one, received first: its Patient and Study attributes stand for the study's. */
export async function findRepresentativeInstance(db: Queryable, itemId: string) {
  const [row] = await db
    .select(INSTANCE_WITH_METADATA)
    .from(dicomInstances)
    .innerJoin(dicomSeries, eq(dicomSeries.id, dicomInstances.seriesId))
    .where(eq(dicomInstances.itemId, itemId))
    .orderBy(sql`${dicomInstances.isImage} desc`, dicomInstances.createdAt, dicomInstances.id)
    .limit(1);
  return row;
}

/**
 * Deletes the instances of one series of the study, all of them or (`keepFrom`) those stored
 * before that SOP Instance UID's instance, so that of two writers replacing the series one after
 * the other the later one's instance stays whatever the order they clean up in; then the series
 * row when none is left, and takes what they brought off the figures (series and study counts,
 * modalities, the item's size). The caller holds the study's lock (lockStudyUid). Returns the
 * storage keys of the files no row names any more, for the caller to delete once no answer can still be sending them.
 */
export async function deleteSeriesInstances(
  db: Queryable,
  itemId: string,
  seriesInstanceUid: string,
  keepFrom: string | null,
): Promise<string[]> {
  const [series] = await db
    .select({ id: dicomSeries.id, thumbnailKey: dicomSeries.thumbnailKey })
    .from(dicomSeries)
    .where(and(eq(dicomSeries.itemId, itemId), eq(dicomSeries.seriesInstanceUid, seriesInstanceUid)));
  if (!series) {
    return [];
  }
  const deleted = await db
    .delete(dicomInstances)
    .where(
      and(
        eq(dicomInstances.seriesId, series.id),
        keepFrom === null
          ? undefined
          : sql`(${dicomInstances.createdAt}, ${dicomInstances.id}) < (
              select kept.created_at, kept.id from ${dicomInstances} kept
              where kept.item_id = ${itemId} and kept.sop_instance_uid = ${keepFrom})`,
      ),
    )
    .returning({ storageKey: dicomInstances.storageKey, size: dicomInstances.size });
  const [left] = await db
    .select({ count: sql<number>`count(*)::integer` })
    .from(dicomInstances)
    .where(eq(dicomInstances.seriesId, series.id));
  if ((left?.count ?? 0) === 0) {
    await db.delete(dicomSeries).where(eq(dicomSeries.id, series.id));
  } else {
    await db.update(dicomSeries).set({ instanceCount: left!.count }).where(eq(dicomSeries.id, series.id));
  }
  const bytes = deleted.reduce((sum, row) => sum + Number(row.size), 0);
  await db.execute(sql`
    update ${studies} set
      instance_count = (select count(*) from ${dicomInstances} where ${dicomInstances.itemId} = ${itemId}),
      series_count = (select count(*) from ${dicomSeries} where ${dicomSeries.itemId} = ${itemId}),
      modalities = coalesce((select array_agg(distinct ${dicomSeries.modality} order by ${dicomSeries.modality})
        from ${dicomSeries} where ${dicomSeries.itemId} = ${itemId} and ${dicomSeries.modality} <> ''), '{}')
    where ${studies.itemId} = ${itemId}`);
  await db
    .update(archiveItems)
    .set({ size: sql`greatest(${archiveItems.size} - ${bytes}, 0)` })
    .where(eq(archiveItems.id, itemId));
  const keys = deleted.map((row) => row.storageKey);
  return left?.count === 0 && series.thumbnailKey ? [...keys, series.thumbnailKey] : keys;
}

/** The SOP classes of Structured Reports that may hold TID 1500 measurements (PS3.4 B.5). */
const MEASUREMENT_REPORT_CLASSES = [
  '1.2.840.10008.5.1.4.1.1.88.22', // Enhanced SR
  '1.2.840.10008.5.1.4.1.1.88.33', // Comprehensive SR
  '1.2.840.10008.5.1.4.1.1.88.34', // Comprehensive 3D SR
  '1.2.840.10008.5.1.4.1.1.88.35', // Extensible SR
];

/**
 * The study's Structured Reports of those classes, outside the series `exceptSeries`, in series
 * then instance order: at most `limit`, and only while their stored metadata comes to at most
 * `maxBytes` together (its stored size, read without reading it). Of their stored attributes only
 * the content tree (0040A730), the Content Date (00080023) and the Author Observer Sequence
 * (0040A078) are read.
 */
export async function findStructuredReports(
  db: Queryable,
  itemId: string,
  exceptSeries: string[],
  bounds: { limit: number; maxBytes: number },
) {
  const candidates = await db
    .select({
      id: dicomInstances.id,
      bytes: sql<number>`pg_column_size(${dicomInstances.metadata})::integer`,
    })
    .from(dicomInstances)
    .innerJoin(dicomSeries, eq(dicomSeries.id, dicomInstances.seriesId))
    .where(
      and(
        eq(dicomInstances.itemId, itemId),
        inArray(dicomInstances.sopClassUid, MEASUREMENT_REPORT_CLASSES),
        exceptSeries.length > 0 ? notInArray(dicomSeries.seriesInstanceUid, exceptSeries) : undefined,
      ),
    )
    .orderBy(
      sql`${dicomSeries.seriesNumber} asc nulls last`,
      dicomSeries.seriesInstanceUid,
      sql`${dicomInstances.instanceNumber} asc nulls last`,
      dicomInstances.sopInstanceUid,
    )
    .limit(bounds.limit);
  const ids: string[] = [];
  let bytes = 0;
  for (const candidate of candidates) {
    bytes += candidate.bytes;
    if (bytes > bounds.maxBytes) {
      break;
    }
    ids.push(candidate.id);
  }
  if (ids.length === 0) {
    return [];
  }
  const attribute = (tag: string) => sql<unknown>`${dicomInstances.metadata} -> ${tag}`;
  const rows = await db
    .select({
      id: dicomInstances.id,
      seriesInstanceUid: dicomSeries.seriesInstanceUid,
      seriesDescription: dicomSeries.seriesDescription,
      sopInstanceUid: dicomInstances.sopInstanceUid,
      content: attribute('0040A730'),
      contentDate: attribute('00080023'),
      authorObserver: attribute('0040A078'),
    })
    .from(dicomInstances)
    .innerJoin(dicomSeries, eq(dicomSeries.id, dicomInstances.seriesId))
    .where(isAnyUuidOf(dicomInstances.id, ids));
  const byId = new Map(rows.map(({ id, ...row }) => [id, row]));
  return ids.flatMap((id) => {
    const row = byId.get(id);
    return row ? [row] : [];
  });
}

/** Every instance of a study item with where its file is, in series and instance order (for sending it). */
export function findStoredInstances(db: Queryable, itemId: string) {
  return db
    .select({
      sopInstanceUid: dicomInstances.sopInstanceUid,
      storageKey: dicomInstances.storageKey,
      patientId: archiveItems.patientId,
    })
    .from(dicomInstances)
    .innerJoin(dicomSeries, eq(dicomSeries.id, dicomInstances.seriesId))
    .innerJoin(archiveItems, eq(archiveItems.id, dicomInstances.itemId))
    .where(eq(dicomInstances.itemId, itemId))
    .orderBy(dicomSeries.seriesInstanceUid, dicomInstances.instanceNumber, dicomInstances.sopInstanceUid);
}
