import { and, asc, eq, sql, type SQL } from 'drizzle-orm';
import type { Queryable } from '../../db/client.js';
import { archiveItems } from '../../db/schema/archive-items.js';
import { dicomInstances, dicomSeries, studies } from '../../db/schema/studies.js';
import { conditionOf, type QidoQuery } from './qido-query.js';

/** Our column for each matching key (qido-query.ts). */
const COLUMNS: Record<string, SQL | typeof studies.studyDate | typeof studies.modalities> = {
  '0020000D': sql`${studies.studyInstanceUid}`,
  '00080020': studies.studyDate,
  '00080050': sql`${studies.accessionNumber}`,
  '00080061': studies.modalities,
  '00080090': sql`${studies.referringPhysicianName}`,
  '00081030': sql`${studies.studyDescription}`,
  '00100010': sql`${studies.patientNameInFile}`,
  '00100020': sql`${studies.patientIdInFile}`,
  '00100030': sql`${studies.patientBirthDateInFile}`,
  '00200010': sql`${studies.studyId}`,
  '0020000E': sql`${dicomSeries.seriesInstanceUid}`,
  '00080060': sql`${dicomSeries.modality}`,
  '00200011': sql`${dicomSeries.seriesNumber}`,
  '0008103E': sql`${dicomSeries.seriesDescription}`,
  '00080018': sql`${dicomInstances.sopInstanceUid}`,
  '00080016': sql`${dicomInstances.sopClassUid}`,
  '00200013': sql`${dicomInstances.instanceNumber}`,
};

function matchingOf(query: QidoQuery): SQL[] {
  return query.matches.map(({ key, value }) => conditionOf(key.matching, COLUMNS[key.tag]!, value));
}

/** What every level shows of its study, and who may see it. */
const STUDY_COLUMNS = {
  itemId: studies.itemId,
  patientId: archiveItems.patientId,
  studyInstanceUid: studies.studyInstanceUid,
  studyDate: studies.studyDate,
  studyTime: studies.studyTime,
  accessionNumber: studies.accessionNumber,
  modalities: studies.modalities,
  referringPhysicianName: studies.referringPhysicianName,
  studyDescription: studies.studyDescription,
  patientNameInFile: studies.patientNameInFile,
  patientIdInFile: studies.patientIdInFile,
  patientBirthDateInFile: studies.patientBirthDateInFile,
  patientSexInFile: studies.patientSexInFile,
  studyId: studies.studyId,
  seriesCount: studies.seriesCount,
  instanceCount: studies.instanceCount,
};

/** Studies the caller may read (`readable`, the access policy's condition) that match the query. */
export function searchStudies(db: Queryable, readable: SQL, query: QidoQuery) {
  return db
    .select(STUDY_COLUMNS)
    .from(studies)
    .innerJoin(archiveItems, eq(archiveItems.id, studies.itemId))
    .where(and(readable, ...matchingOf(query)))
    .orderBy(sql`${studies.studyDate} desc nulls last`, asc(studies.studyInstanceUid))
    .limit(query.limit)
    .offset(query.offset);
}
export type StudyRow = Awaited<ReturnType<typeof searchStudies>>[number];

/** Series in study order, then by number: the order of series searches, and of instances within them. */
const SERIES_ORDER = [
  asc(studies.studyInstanceUid),
  sql`${dicomSeries.seriesNumber} asc nulls last`,
  asc(dicomSeries.seriesInstanceUid),
];

const SERIES_COLUMNS = {
  ...STUDY_COLUMNS,
  seriesId: dicomSeries.id,
  seriesInstanceUid: dicomSeries.seriesInstanceUid,
  modality: dicomSeries.modality,
  seriesNumber: dicomSeries.seriesNumber,
  seriesDescription: dicomSeries.seriesDescription,
  bodyPartExamined: dicomSeries.bodyPartExamined,
  seriesInstanceCount: dicomSeries.instanceCount,
  thumbnailKey: dicomSeries.thumbnailKey,
};

export function searchSeries(db: Queryable, readable: SQL, query: QidoQuery) {
  return db
    .select(SERIES_COLUMNS)
    .from(dicomSeries)
    .innerJoin(studies, eq(studies.itemId, dicomSeries.itemId))
    .innerJoin(archiveItems, eq(archiveItems.id, studies.itemId))
    .where(and(readable, ...matchingOf(query)))
    .orderBy(...SERIES_ORDER)
    .limit(query.limit)
    .offset(query.offset);
}
export type SeriesRow = Awaited<ReturnType<typeof searchSeries>>[number];

/** Instances of up to this many frames carry their frame offsets in every instance row. */
export const INLINE_FRAME_OFFSETS = 64;

/**
 * An instance's frame offsets when it has few frames, else null (encapsulated-frames.ts reads the
 * offsets of a larger one once, on its first frame): every row of a study's retrieve or of a
 * frame request would otherwise carry, and parse, hundreds of numbers a many-frame instance has.
 */
const inlineFrameOffsets = sql<number[] | null>`case
    when jsonb_typeof(${dicomInstances.frameOffsets}) <> 'array' then null
    when jsonb_array_length(${dicomInstances.frameOffsets}) <= ${INLINE_FRAME_OFFSETS + 1} then ${dicomInstances.frameOffsets}
  end`.mapWith(dicomInstances.frameOffsets);

const INSTANCE_COLUMNS = {
  ...SERIES_COLUMNS,
  instanceId: dicomInstances.id,
  sopInstanceUid: dicomInstances.sopInstanceUid,
  sopClassUid: dicomInstances.sopClassUid,
  instanceNumber: dicomInstances.instanceNumber,
  rows: dicomInstances.rows,
  columns: dicomInstances.columns,
  numberOfFrames: dicomInstances.numberOfFrames,
  transferSyntaxUid: dicomInstances.transferSyntaxUid,
  isImage: dicomInstances.isImage,
  storageKey: dicomInstances.storageKey,
  size: dicomInstances.size,
  pixelDataOffset: dicomInstances.pixelDataOffset,
  frameBytes: dicomInstances.frameBytes,
  frameOffsets: inlineFrameOffsets,
};

export function searchInstances(db: Queryable, readable: SQL, query: QidoQuery) {
  return db
    .select(INSTANCE_COLUMNS)
    .from(dicomInstances)
    .innerJoin(dicomSeries, eq(dicomSeries.id, dicomInstances.seriesId))
    .innerJoin(studies, eq(studies.itemId, dicomInstances.itemId))
    .innerJoin(archiveItems, eq(archiveItems.id, studies.itemId))
    .where(and(readable, ...matchingOf(query)))
    .orderBy(
      ...SERIES_ORDER,
      sql`${dicomInstances.instanceNumber} asc nulls last`,
      asc(dicomInstances.sopInstanceUid),
    )
    .limit(query.limit)
    .offset(query.offset);
}
export type InstanceRow = Awaited<ReturnType<typeof searchInstances>>[number];

/**
 * The stored metadata of the instances (PS3.18 F.2, without bulk data), one JSON text per instance
 * in the order given, each with its transfer syntax added: sent as it comes, never parsed here.
 * Each row is its own text, so no answer is ever one string of every instance's metadata.
 */
export async function metadataOf(db: Queryable, instanceIds: string[]): Promise<string[]> {
  const result = await db.execute(sql`
    select (${dicomInstances.metadata} || jsonb_build_object(
        '00083002', jsonb_build_object('vr', 'UI', 'Value', jsonb_build_array(${dicomInstances.transferSyntaxUid}))
      ))::text as json
    from unnest(${sql.param(instanceIds)}::uuid[]) with ordinality as wanted(id, ordinality)
    join ${dicomInstances} on ${dicomInstances.id} = wanted.id
    order by wanted.ordinality`);
  return (result as { rows: { json: string }[] }).rows.map((row) => row.json);
}

/**
 * For includefield: the attributes of one instance (the lowest-numbered) of each study or series,
 * which speak for the whole study or series.
 */
export async function representativeMetadata(
  db: Queryable,
  level: 'study' | 'series' | 'instance',
  ids: string[],
): Promise<Map<string, Record<string, unknown>>> {
  if (ids.length === 0) {
    return new Map();
  }
  const owner = {
    study: dicomInstances.itemId,
    series: dicomInstances.seriesId,
    instance: dicomInstances.id,
  }[level];
  const result = await db.execute(sql`
    select distinct on (${owner}) ${owner} as id, ${dicomInstances.metadata} as metadata
    from ${dicomInstances}
    where ${owner} = any(${sql.param(ids)}::uuid[])
    order by ${owner}, ${dicomInstances.instanceNumber} asc nulls last, ${dicomInstances.sopInstanceUid}`);
  const rows = (result as { rows: { id: string; metadata: Record<string, unknown> }[] }).rows;
  return new Map(rows.map((row) => [row.id, row.metadata]));
}
