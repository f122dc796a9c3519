import type { DicomJsonDataset } from '@ra/shared';
import type { AppContext } from '../../context.js';
import { AppError, InvalidInput } from '../../lib/errors.js';
import type { Actor } from '../../lib/actor.js';
import { dicomReadScope, type ReadScope } from '../access/index.js';
import { auditReads, auditRepeatedReads, type AuditEntry } from '../audit/index.js';
import {
  instanceAttributes,
  seriesAttributes,
  studyAttributes,
  withIncludedFields,
} from './dicom-attributes.js';
import * as repo from './dicomweb.repository.js';
import { isUid, parseQidoQuery, QidoQueryError, type QidoLevel, type QidoQuery } from './qido-query.js';

/**
 * Who reads through DICOMweb: the archive items they may see (an access-policy scope, whose key
 * names the rows it selects) and the id their reads are audited under. A signed-in user reads
 * what `dicomReadScope` lets them; a share link (shares module) reads its one item, audited with
 * the link as the actor.
 */
export interface DicomReader extends ReadScope {
  actorId: string;
}

/** The reader a signed-in user is. */
export function readerOf(user: Actor): DicomReader {
  return { ...dicomReadScope(user), actorId: user.id };
}

export type QueryString = Record<string, string | string[] | undefined>;

/** Where a study, series or instance can be retrieved (RetrieveURL, 0008,1190). */
export interface DicomPath {
  study?: string;
  series?: string;
  instance?: string;
}

export interface SearchAnswer {
  datasets: DicomJsonDataset[];
  /** Query keys that were not used for matching. */
  ignored: string[];
}

/** The UIDs of a path name one study, series or instance each: no list, no wildcard. */
const PATH_KEYWORDS = { study: 'StudyInstanceUID', series: 'SeriesInstanceUID', instance: 'SOPInstanceUID' };

function readQuery(query: QueryString, level: QidoLevel, path: DicomPath): QidoQuery {
  for (const part of ['study', 'series', 'instance'] as const) {
    const uid = path[part];
    if (uid !== undefined && !isUid(uid)) {
      throw new InvalidInput(PATH_KEYWORDS[part], `"${uid.slice(0, 80)}" is not a UID.`);
    }
  }
  try {
    // Path parameters match exactly, like the same keys in the query string.
    return parseQidoQuery(
      {
        ...query,
        ...(path.study ? { StudyInstanceUID: path.study } : {}),
        ...(path.series ? { SeriesInstanceUID: path.series } : {}),
        ...(path.instance ? { SOPInstanceUID: path.instance } : {}),
      },
      level,
    );
  } catch (err) {
    if (err instanceof QidoQueryError) {
      throw new InvalidInput(err.path || 'query', err.message);
    }
    throw err;
  }
}

export function urlOf(ctx: AppContext, path: DicomPath): string {
  let url = `${ctx.config.publicUrl.replace(/\/$/, '')}/dicomweb/studies/${path.study}`;
  if (path.series) {
    url += `/series/${path.series}`;
  }
  if (path.instance) {
    url += `/instances/${path.instance}`;
  }
  return url;
}

/** A search reads the lists of the patients whose studies it returns (access history: "list"). */
async function auditSearch(
  ctx: AppContext,
  reader: DicomReader,
  rows: { itemId: string; patientId: string | null }[],
  ip: string,
) {
  // A study waiting in the caller's Incoming list belongs to no patient yet: its read is the item's.
  const patients = [...new Set(rows.flatMap((row) => (row.patientId ? [row.patientId] : [])))];
  const received = [...new Set(rows.flatMap((row) => (row.patientId ? [] : [row.itemId])))];
  await auditReads(
    ctx,
    patients
      .map((patientId): AuditEntry => ({
        actorId: reader.actorId,
        patientId,
        action: 'read',
        recordType: 'image-list',
        recordId: patientId,
        ip,
      }))
      .concat(
        received.map((itemId): AuditEntry => ({
          actorId: reader.actorId,
          patientId: null,
          action: 'read',
          recordType: 'image',
          recordId: itemId,
          ip,
        })),
      ),
  );
}

/** QIDO-RS (PS3.18 10.6): what the caller may read and the query matches; nothing else exists. */
export async function search(
  ctx: AppContext,
  reader: DicomReader,
  level: QidoLevel,
  path: DicomPath,
  queryString: QueryString,
  ip: string,
): Promise<SearchAnswer> {
  const query = readQuery(queryString, level, path);
  const readable = reader.filter;
  let datasets: DicomJsonDataset[];
  let rows: { itemId: string; patientId: string | null }[];
  if (level === 'study') {
    const found = await repo.searchStudies(ctx.db, readable, query);
    const extra = await includedFor(
      ctx,
      query,
      'study',
      found.map((row) => row.itemId),
    );
    rows = found;
    datasets = found.map((row) =>
      withIncludedFields(
        studyAttributes(row, urlOf(ctx, { study: row.studyInstanceUid })),
        query.includeFields,
        extra.get(row.itemId),
      ),
    );
  } else if (level === 'series') {
    const found = await repo.searchSeries(ctx.db, readable, query);
    const extra = await includedFor(
      ctx,
      query,
      'series',
      found.map((row) => row.seriesId),
    );
    rows = found;
    datasets = found.map((row) =>
      withIncludedFields(
        seriesAttributes(row, urlOf(ctx, { study: row.studyInstanceUid, series: row.seriesInstanceUid })),
        query.includeFields,
        extra.get(row.seriesId),
      ),
    );
  } else {
    const found = await repo.searchInstances(ctx.db, readable, query);
    rows = found;
    datasets = found.map((row) =>
      instanceAttributes(
        row,
        urlOf(ctx, {
          study: row.studyInstanceUid,
          series: row.seriesInstanceUid,
          instance: row.sopInstanceUid,
        }),
      ),
    );
    if (query.includeFields === 'all' || query.includeFields.length > 0) {
      const extra = await repo.representativeMetadata(
        ctx.db,
        'instance',
        found.map((row) => row.instanceId),
      );
      datasets = datasets.map((dataset, index) =>
        withIncludedFields(dataset, query.includeFields, extra.get(found[index]!.instanceId)),
      );
    }
  }
  await auditSearch(ctx, reader, rows, ip);
  return { datasets, ignored: query.ignored };
}

async function includedFor(ctx: AppContext, query: QidoQuery, level: 'study' | 'series', ids: string[]) {
  const isWanted = query.includeFields === 'all' || query.includeFields.length > 0;
  return isWanted
    ? repo.representativeMetadata(ctx.db, level, ids)
    : new Map<string, Record<string, unknown>>();
}

/**
 * The instances under a path that the caller may read, in study, series and instance order; an
 * empty answer is 404 (what the caller may not see does not exist). Each item read is audited.
 */
export async function instancesAt(
  ctx: AppContext,
  reader: DicomReader,
  path: DicomPath,
  ip: string,
  action: 'read' | 'download' = 'read',
): Promise<repo.InstanceRow[]> {
  const query = readQuery({}, 'instance', path);
  query.limit = Number.MAX_SAFE_INTEGER;
  return audited(ctx, reader, await repo.searchInstances(ctx.db, reader.filter, query), ip, action);
}

/**
 * One instance's rows, as `instancesAt` finds them, for the reads a viewer repeats for the same
 * instance (each frame of it, rendered or not): kept while nothing they read changes
 * (instance-rows-cache.ts). Only the columns of the instance itself are to be used: the series'
 * and study's figures and thumbnail may have moved on meanwhile.
 */
export async function instanceAt(
  ctx: AppContext,
  reader: DicomReader,
  path: Required<DicomPath>,
  ip: string,
  action: 'read' | 'download' = 'read',
): Promise<repo.InstanceRow[]> {
  const query = readQuery({}, 'instance', path);
  query.limit = Number.MAX_SAFE_INTEGER;
  const rows = await ctx.instanceRows.getOrLoad(
    reader.cacheKey,
    `${path.study}/${path.series}/${path.instance}`,
    () => repo.searchInstances(ctx.db, reader.filter, query),
  );
  return audited(ctx, reader, rows, ip, action);
}

/** The rows found, once their reading is audited; NOT_FOUND when there are none. */
async function audited(
  ctx: AppContext,
  reader: DicomReader,
  rows: repo.InstanceRow[],
  ip: string,
  action: 'read' | 'download',
): Promise<repo.InstanceRow[]> {
  if (rows.length === 0) {
    throw new AppError('NOT_FOUND');
  }
  const items = new Map(rows.map((row) => [row.itemId, row.patientId]));
  // A viewer reads an instance frame by frame: a minute of that reading is one row.
  await auditRepeatedReads(
    ctx,
    [...items].map(([itemId, patientId]): AuditEntry => ({
      actorId: reader.actorId,
      patientId,
      action,
      recordType: action === 'download' ? 'file' : 'image',
      recordId: action === 'download' ? `studies/${itemId}` : itemId,
      ip,
    })),
  );
  return rows;
}

/** Instances whose metadata one statement reads: each is at most DICOM_MAX_METADATA_BYTES. */
const METADATA_BATCH = 64;

/**
 * WADO-RS metadata (PS3.18 10.4.1.1.2): the stored attributes of every instance under the path, as
 * a JSON array streamed a few instances at a time, so memory stays bounded whatever the study holds.
 * The access check, the 404 and the audit happen before the first byte.
 */
export async function metadataAt(
  ctx: AppContext,
  reader: DicomReader,
  path: DicomPath,
  ip: string,
): Promise<AsyncIterable<string>> {
  const ids = (await instancesAt(ctx, reader, path, ip)).map((row) => row.instanceId);
  async function* chunks(): AsyncGenerator<string> {
    yield '[';
    for (let start = 0; start < ids.length; start += METADATA_BATCH) {
      const texts = await repo.metadataOf(ctx.db, ids.slice(start, start + METADATA_BATCH));
      yield (start > 0 ? ',' : '') + texts.join(',');
    }
    yield ']';
  }
  return chunks();
}
