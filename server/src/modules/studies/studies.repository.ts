import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Queryable } from '../../db/client.js';
import { dicomInstances, dicomSeries, images, studies, users } from '../../db/schema/index.js';

/** The item a Study Instance UID is filed as, and under which patient; undefined when it is new. */
export async function findStudiesByUid(db: Queryable, studyUids: string[]) {
  if (studyUids.length === 0) {
    return [];
  }
  return db
    .select({
      itemId: studies.itemId,
      studyInstanceUid: studies.studyInstanceUid,
      patientId: images.patientId,
      receiverId: images.receiverId,
    })
    .from(studies)
    .innerJoin(images, eq(images.id, studies.itemId))
    .where(inArray(studies.studyInstanceUid, studyUids));
}

/**
 * Holds, until the transaction ends, a lock on one Study Instance UID, so that requests filing the
 * same study one after the other see each other's rows.
 */
export async function lockStudyUid(db: Queryable, studyUid: string): Promise<void> {
  await db.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`study:${studyUid}`}, 0))`);
}

export async function insertStudy(db: Queryable, study: typeof studies.$inferInsert) {
  await db.insert(studies).values(study);
}

/** Series already in the archive, to add instances to them rather than file them twice. */
export function findSeriesByUid(db: Queryable, seriesUids: string[]) {
  return db
    .select({
      id: dicomSeries.id,
      itemId: dicomSeries.itemId,
      seriesInstanceUid: dicomSeries.seriesInstanceUid,
    })
    .from(dicomSeries)
    .where(inArray(dicomSeries.seriesInstanceUid, seriesUids));
}

export async function insertSeries(db: Queryable, series: (typeof dicomSeries.$inferInsert)[]) {
  return db
    .insert(dicomSeries)
    .values(series)
    .returning({ id: dicomSeries.id, seriesInstanceUid: dicomSeries.seriesInstanceUid });
}

/** Which of these SOP Instance UIDs the archive already holds. */
export async function findStoredSops(db: Queryable, sopUids: string[]): Promise<Set<string>> {
  const rows = await db
    .select({ sopInstanceUid: dicomInstances.sopInstanceUid })
    .from(dicomInstances)
    .where(inArray(dicomInstances.sopInstanceUid, sopUids));
  return new Set(rows.map((row) => row.sopInstanceUid));
}

/**
 * Stores instance rows; one that another request stored meanwhile is skipped by the unique SOP
 * Instance UID. Returns the SOP Instance UIDs actually stored.
 */
export async function insertInstances(
  db: Queryable,
  instances: (typeof dicomInstances.$inferInsert)[],
): Promise<Set<string>> {
  const stored = new Set<string>();
  // Bounded batches: each row carries its metadata, and a statement has at most 65535 parameters.
  for (let start = 0; start < instances.length; start += 500) {
    const rows = await db
      .insert(dicomInstances)
      .values(instances.slice(start, start + 500))
      .onConflictDoNothing({ target: dicomInstances.sopInstanceUid })
      .returning({ sopInstanceUid: dicomInstances.sopInstanceUid });
    rows.forEach((row) => stored.add(row.sopInstanceUid));
  }
  return stored;
}

/** Recounts a study's series, instances and modalities from what is stored under it. */
export async function recountStudy(db: Queryable, itemId: string, size: number) {
  // One statement: its parts share one snapshot, so the study's figures come from the series rows
  // the first part returns rather than from the table it is changing.
  await db.execute(sql`
    with counted as (
      update ${dicomSeries} set instance_count =
        (select count(*) from ${dicomInstances} where ${dicomInstances.seriesId} = ${dicomSeries.id})
      where ${dicomSeries.itemId} = ${itemId}
      returning ${dicomSeries.modality} as modality, ${dicomSeries.instanceCount} as instance_count
    ), study as (
      update ${studies} set
        series_count = (select count(*) from counted),
        instance_count = (select coalesce(sum(instance_count), 0) from counted),
        modalities = coalesce((select array_agg(distinct modality order by modality)
          from counted where modality <> ''), '{}')
      where ${studies.itemId} = ${itemId}
    )
    update ${images} set size = size + ${size} where ${images.id} = ${itemId}`);
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
    .update(images)
    .set({ width: preview.width, height: preview.height, thumbnailKey: preview.thumbnailKey })
    .where(eq(images.id, itemId));
  await db.update(studies).set({ previewNote: null }).where(eq(studies.itemId, itemId));
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
