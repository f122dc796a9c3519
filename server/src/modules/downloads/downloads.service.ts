import type { Readable } from 'node:stream';
import type { Image } from '@ra/shared';
import type { AppContext } from '../../context.js';
import type { Actor } from '../../lib/actor.js';
import { AppError } from '../../lib/errors.js';
import { itemReadFilter, requireListOf, requirePermitted } from '../access/index.js';
import { presentItemForLink, presentItems } from '../archive-items/index.js';
import { auditReads, type AuditEntry } from '../audit/index.js';
import { extensionOfMime } from '../storage/index.js';
import { uidOfName, writeDicomdir } from './dicomdir.js';
import * as repo from './downloads.repository.js';
import { indexPage } from './index-page.js';
import { manifestOf } from './manifest.js';
import { layOut } from './zip-layout.js';
import { etagOf, streamZip, type ZipPlan } from './zip-stream.js';
import { rangeOf } from './byte-range.js';

/** What the route sends: the whole ZIP, a range of it, or 416 for a range past its end. */
export type ZipAnswer =
  | { status: 200 | 206; headers: Record<string, string | number>; body: Readable }
  | { status: 416; headers: Record<string, string | number> };

/** How the client asked: its Range and If-Range headers, and where from (for the audit log). */
export interface DownloadRequest {
  range?: string;
  ifRange?: string;
  ip: string | null;
}

/** The audit row of an item's download (docs/security.md §7); the access history counts it as the item's file. */
function downloadAuditOf(
  actorId: string | null,
  item: { id: string; patientId: string },
  ip: string | null,
): AuditEntry {
  return {
    actorId,
    patientId: item.patientId,
    action: 'download',
    recordType: 'file',
    recordId: `downloads/${item.id}.zip`,
    ip,
  };
}

/**
 * Who a ZIP is made for: a signed-in reader sees the notes their role may read; a share link's
 * visitor gets what the link shows, the item without its notes and analyses.
 */
export type ZipReader = { actor: Actor } | { linkId: string };

function presenterOf(ctx: AppContext, reader: ZipReader): (ids: string[]) => Promise<Map<string, Image>> {
  if ('actor' in reader) {
    return (ids) => presentItems(ctx, reader.actor, ids);
  }
  return async (ids) => {
    const shown = await Promise.all(ids.map((id) => presentItemForLink(ctx, id, reader.linkId)));
    return new Map(shown.flatMap((image) => (image ? [[image.uid, image] as const] : [])));
  };
}

/** The ZIP's entries and files made for it, from items the caller may read. */
async function planOf(
  ctx: AppContext,
  reader: ZipReader,
  scope: 'item' | 'archive',
  patientId: string,
  items: repo.DownloadItemRow[],
): Promise<ZipPlan> {
  const [patient, instances, presented] = await Promise.all([
    repo.findPatient(ctx.db, patientId),
    repo.listInstancesOfStudies(
      ctx.db,
      items.filter((item) => item.kind === 'study').map((item) => item.id),
    ),
    presenterOf(ctx, reader)(items.map((item) => item.id)),
  ]);
  if (!patient) {
    throw new AppError('NOT_FOUND');
  }
  const layout = layOut(items, instances, extensionOfMime);
  const manifest = manifestOf(
    scope,
    { uid: patientId, firstName: patient.firstName, lastName: patient.lastName, dob: patient.dob },
    items.flatMap((item) => presented.get(item.id) ?? []),
    layout,
  );
  const generated: ZipPlan['generated'] = [
    { path: 'index.html', data: Buffer.from(indexPage(manifest), 'utf8') },
    { path: 'archive.json', data: Buffer.from(`${JSON.stringify(manifest, null, 2)}\n`, 'utf8') },
  ];
  if (layout.patients.length > 0) {
    // The file-set UID names what the download holds, so the same records give the same DICOMDIR.
    const fileSetUid = uidOfName(`download:${layout.entries.map((entry) => entry.storageKey).join('|')}`);
    generated.unshift({ path: 'DICOMDIR', data: writeDicomdir(layout.patients, fileSetUid) });
  }
  // One time for every entry, the newest item's: the bytes do not depend on when they are asked for.
  const newest = Math.max(Date.UTC(1980, 0, 2), ...items.map((item) => item.createdAt.getTime()));
  return { generated, stored: layout.entries, mtime: new Date(newest) };
}

/**
 * Audits the download of every item, then answers with the ZIP, or with the range asked for when
 * the client resumes the same bytes (its If-Range, when sent, names this ZIP's ETag).
 */
async function answer(
  ctx: AppContext,
  plan: ZipPlan,
  audit: AuditEntry[],
  filename: string,
  request: DownloadRequest,
): Promise<ZipAnswer> {
  const etag = etagOf(plan);
  const headers: Record<string, string | number> = {
    'Content-Type': 'application/zip',
    'Content-Disposition': `attachment; filename="${filename}"`,
    'Cache-Control': 'no-store',
    'Accept-Ranges': 'bytes',
    ETag: etag,
  };
  // A Range is honoured only for the same bytes: an If-Range naming another ETag gets the whole ZIP.
  const zip = streamZip(ctx.storage, plan, (size) =>
    request.ifRange === undefined || request.ifRange === etag ? rangeOf(request.range, size) : null,
  );
  if (zip.range === 'unsatisfiable') {
    return { status: 416, headers: { ...headers, 'Content-Range': `bytes */${zip.size}` } };
  }
  try {
    // Fail closed: no byte leaves before every item's download is recorded.
    await auditReads(ctx, audit);
  } catch (error) {
    zip.body.destroy();
    throw error;
  }
  if (zip.range) {
    return {
      status: 206,
      headers: {
        ...headers,
        'Content-Range': `bytes ${zip.range.start}-${zip.range.end}/${zip.size}`,
        'Content-Length': zip.range.end - zip.range.start + 1,
      },
      body: zip.body,
    };
  }
  return { status: 200, headers: { ...headers, 'Content-Length': zip.size }, body: zip.body };
}

const DATE = (date: Date) => date.toISOString().slice(0, 10);

/**
 * The ZIP of one item that the reader has already been allowed to download (a share link's route
 * decides that itself); the audit row names the reader, the user or the link.
 */
export async function itemZip(
  ctx: AppContext,
  itemId: string,
  reader: ZipReader,
  request: DownloadRequest,
): Promise<ZipAnswer> {
  const item = await repo.findItem(ctx.db, itemId);
  if (!item) {
    throw new AppError('NOT_FOUND');
  }
  const plan = await planOf(ctx, reader, 'item', item.patientId, [item]);
  const auditActorId = 'actor' in reader ? reader.actor.id : reader.linkId;
  return answer(
    ctx,
    plan,
    [downloadAuditOf(auditActorId, item, request.ip)],
    `radiology-archive-${item.kind}-${DATE(item.createdAt)}-${item.id.slice(0, 8)}.zip`,
    request,
  );
}

/** GET /api/image/:uid/download: anyone who may read the item; 404 for anyone else. */
export async function downloadItem(
  ctx: AppContext,
  user: Actor,
  itemId: string,
  request: DownloadRequest,
): Promise<ZipAnswer> {
  await requirePermitted(ctx, user, 'item:download', [itemId]);
  return itemZip(ctx, itemId, { actor: user }, request);
}

/** GET /api/user/archive/download: the patient's own archive, every item they may read. */
export async function downloadArchive(
  ctx: AppContext,
  user: Actor,
  request: DownloadRequest,
): Promise<ZipAnswer> {
  await requireListOf(ctx, user, user.id);
  const items = await repo.listItemsOfPatient(ctx.db, user.id, itemReadFilter(user));
  const plan = await planOf(ctx, { actor: user }, 'archive', user.id, items);
  return answer(
    ctx,
    plan,
    items.map((item) => downloadAuditOf(user.id, item, request.ip)),
    `radiology-archive-${DATE(new Date())}.zip`,
    request,
  );
}
