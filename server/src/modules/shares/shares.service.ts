import {
  displayName,
  PATHS,
  SHARE_MAX_WRONG_CODES,
  SHARE_NOT_AVAILABLE,
  SHARE_OPENED_MESSAGE,
  SHARE_WRONG_CODE,
  type CreateShareBody,
  type OpenedShare,
  type Share,
  type ShareListPage,
  type ShareOpening,
} from '@ra/shared';
import type { z } from 'zod';
import type { createShareBodySchema } from '@ra/shared';
import type { AppContext } from '../../context.js';
import type { Actor } from '../../lib/actor.js';
import { decodeCursor, encodeCursor } from '../../lib/cursor.js';
import { AppError, Refusal } from '../../lib/errors.js';
import { requireLinkMay, requirePermitted } from '../access/index.js';
import { presentItemForLink, presentItems, summarizeItems } from '../archive-items/index.js';
import { auditChange, auditReads } from '../audit/index.js';
import { itemZip, type DownloadRequest, type ZipAnswer } from '../downloads/index.js';
import { notify } from '../notifications/index.js';
import * as repo from './shares.repository.js';
import { accessCodeHashOf, accessCodeMatches, newShareToken, tokenHashOf } from './share-secrets.js';

export type { CreateShareBody };
type CreateShareInput = z.output<typeof createShareBodySchema>;

/** Expired, revoked, locked and unknown links all answer this, the same way. */
export class ShareNotAvailable extends Refusal {
  constructor() {
    super(404, SHARE_NOT_AVAILABLE);
  }
}

function codeSecret(ctx: AppContext): string {
  return ctx.fileUrlSecret;
}

function urlOfToken(ctx: AppContext, token: string): string {
  return `${ctx.config.publicUrl}/s/${token}`;
}

function toShare(row: repo.ShareRow, url: string): Share {
  return {
    uid: row.id,
    url,
    expires_at: row.expiresAt.toISOString(),
    allow_download: row.allowDownload,
    has_access_code: row.accessCodeHash !== null,
    created_at: row.createdAt.toISOString(),
    last_opened_at: row.lastOpenedAt?.toISOString() ?? null,
    open_count: row.openCount,
  };
}

/**
 * Makes a link to one item (the patient, or the patient's physician: access verb `share:create`).
 * The token leaves the server once, in this answer (and the email when one is asked for).
 */
export async function createShare(
  ctx: AppContext,
  user: Actor,
  itemId: string,
  input: CreateShareInput,
  ip: string,
): Promise<{ share: Share }> {
  await requirePermitted(ctx, user, 'share:create', [itemId]);
  const item = (await presentItems(ctx, user, [itemId])).get(itemId);
  if (!item) {
    throw new AppError('NOT_FOUND');
  }
  const token = newShareToken();
  const url = urlOfToken(ctx, token);
  const id = crypto.randomUUID();
  const row = await ctx.db.transaction(async (tx) => {
    const created = await repo.insertShare(tx, {
      id,
      tokenHash: tokenHashOf(token),
      itemId,
      patientId: item.patient_uid,
      creatorId: user.id,
      accessCodeHash: input.access_code ? accessCodeHashOf(codeSecret(ctx), id, input.access_code) : null,
      allowDownload: input.allow_download,
      recipientEmail: input.recipient_email ?? null,
      note: input.note ?? null,
      expiresAt: new Date(Date.now() + input.expires_in_hours * 3600_000),
    });
    await auditChange(tx, {
      actorId: user.id,
      patientId: item.patient_uid,
      action: 'create',
      recordType: 'share',
      recordId: created.id,
      ip,
    });
    if (input.recipient_email) {
      const sender = displayName({ title: user.title, first_name: user.firstName, last_name: user.lastName });
      await ctx.mailer.enqueue(
        {
          to: input.recipient_email,
          subject: 'Medical images were shared with you',
          text:
            `${sender} shared medical images with you through Radiology Archive.\n\n` +
            `Open them here until ${created.expiresAt.toUTCString()}:\n${url}\n` +
            (input.access_code ? '\nYou will be asked for an access code, which they will give you.\n' : '') +
            (input.note ? `\nTheir note:\n${input.note}\n` : ''),
          link: url,
        },
        tx,
      );
    }
    return created;
  });
  return { share: toShare(row, url) };
}

/** The caller's links, newest first, each naming its item (null once the caller may not read it). */
export async function listShares(
  ctx: AppContext,
  user: Actor,
  page: { limit: number; cursor?: string },
): Promise<ShareListPage> {
  const after = decodeCursor(page.cursor, 2) as [string, string] | undefined;
  const rows = await repo.sharesOfCreator(ctx.db, user.id, { limit: page.limit + 1, after });
  const pageRows = rows.slice(0, page.limit);
  const items = await summarizeItems(
    ctx,
    user,
    pageRows.map((row) => row.itemId),
  );
  const now = Date.now();
  const last = pageRows.at(-1);
  return {
    shares: pageRows.map((row) => {
      // The list has no URL: only the token's hash is kept.
      const share = toShare(row, '');
      return {
        uid: share.uid,
        expires_at: share.expires_at,
        allow_download: share.allow_download,
        has_access_code: share.has_access_code,
        created_at: share.created_at,
        last_opened_at: share.last_opened_at,
        open_count: share.open_count,
        item_uid: row.itemId,
        item: items.get(row.itemId) ?? null,
        is_active: isOpenable(row, now),
        revoked_at: row.revokedAt?.toISOString() ?? null,
        note: row.note,
      };
    }),
    next_cursor:
      rows.length > page.limit && last ? encodeCursor([last.createdAt.toISOString(), last.id]) : null,
  };
}

/** Revokes the caller's own link at once; anyone else's, or none, is 404. */
export async function revokeShare(ctx: AppContext, user: Actor, shareId: string, ip: string): Promise<void> {
  await ctx.db.transaction(async (tx) => {
    const row = await repo.revokeShare(tx, shareId, user.id);
    if (!row) {
      throw new AppError('NOT_FOUND');
    }
    await auditChange(tx, {
      actorId: user.id,
      patientId: row.patientId,
      action: 'delete',
      recordType: 'share',
      recordId: row.id,
      ip,
    });
  });
}

function isOpenable(row: repo.ShareRow, now: number): boolean {
  return (
    row.revokedAt === null && row.expiresAt.getTime() > now && row.failedAttempts < SHARE_MAX_WRONG_CODES
  );
}

/** A link a request may read through, once its token and code have been checked. */
export interface OpenLink {
  id: string;
  itemId: string;
  patientId: string;
  expiresAt: Date;
  allowDownload: boolean;
}

/**
 * Checks a token and the access code that came with it. The token is hashed and looked up once,
 * then every unavailable case throws the same ShareNotAvailable. Without a code where one is set,
 * undefined; a wrong code is counted (the tenth locks the link) and refused 401.
 */
export async function checkLink(
  ctx: AppContext,
  token: string,
  code: string | undefined,
): Promise<OpenLink | undefined> {
  const row = await repo.findShareByTokenHash(ctx.db, tokenHashOf(token));
  if (!row || !isOpenable(row, Date.now())) {
    throw new ShareNotAvailable();
  }
  if (row.accessCodeHash !== null) {
    if (code === undefined || code === '') {
      return undefined;
    }
    if (!accessCodeMatches(codeSecret(ctx), row.id, code, row.accessCodeHash)) {
      const wrong = await repo.countWrongCode(ctx.db, row.id);
      if (wrong >= SHARE_MAX_WRONG_CODES) {
        // That was the last try: the link is locked, and says so as any unavailable link does.
        throw new ShareNotAvailable();
      }
      throw new Refusal(401, SHARE_WRONG_CODE);
    }
  }
  return {
    id: row.id,
    itemId: row.itemId,
    patientId: row.patientId,
    expiresAt: row.expiresAt,
    allowDownload: row.allowDownload,
  };
}

/** A link's token and code as a reader of its one item; a link that asks for a code it was not given is 401. */
export async function requireOpenLink(
  ctx: AppContext,
  token: string,
  code: string | undefined,
): Promise<OpenLink> {
  const link = await checkLink(ctx, token, code);
  if (!link) {
    throw new Refusal(401, SHARE_WRONG_CODE);
  }
  return link;
}

/** Counts a use of the link (an opening or a download) and tells the patient, once a link a day. */
async function recordUse(ctx: AppContext, link: OpenLink): Promise<void> {
  await ctx.db.transaction(async (tx) => {
    await repo.recordOpening(tx, link.id);
    const today = new Date().toISOString().slice(0, 10);
    if (await repo.markNotifiedOn(tx, link.id, today)) {
      await notify(tx, { userId: link.patientId, message: SHARE_OPENED_MESSAGE, to: PATHS.shares });
    }
  });
}

/**
 * `GET /api/s/{token}/download`: the shared item's ZIP, for a link that allows downloading. The
 * ZIP holds what the link shows (the files, without notes or analyses); each request, a resumed
 * range too, is audited with the link as the actor, and a download from its first byte counts as
 * a use of the link.
 */
export async function downloadShare(
  ctx: AppContext,
  token: string,
  code: string | undefined,
  request: DownloadRequest,
): Promise<ZipAnswer> {
  const link = await requireOpenLink(ctx, token, code);
  requireLinkMay(link, 'item:download', link.itemId);
  const zip = await itemZip(ctx, link.itemId, { linkId: link.id }, request);
  if (zip.status === 200) {
    await recordUse(ctx, link);
  }
  return zip;
}

/**
 * `GET /api/s/{token}`: asks for the code, or opens the link: counts the opening, audits it with the
 * link as the actor and tells the patient (once a link a day).
 */
export async function openShare(
  ctx: AppContext,
  token: string,
  code: string | undefined,
  ip: string,
): Promise<ShareOpening> {
  const link = await checkLink(ctx, token, code);
  if (!link) {
    return { needs_access_code: true };
  }
  requireLinkMay(link, 'item:read', link.itemId);
  const [item, patient] = await Promise.all([
    presentItemForLink(ctx, link.itemId, link.id),
    repo.patientOfShare(ctx.db, link.patientId),
  ]);
  if (!item || !patient) {
    throw new ShareNotAvailable();
  }
  await auditReads(ctx, [
    {
      actorId: link.id,
      patientId: link.patientId,
      action: 'read',
      recordType: 'share',
      recordId: link.itemId,
      ip,
    },
  ]);
  await recordUse(ctx, link);
  const opened: OpenedShare = {
    patient: {
      full_name: displayName({
        title: patient.title,
        first_name: patient.firstName,
        last_name: patient.lastName,
      }),
      dob: patient.dob,
    },
    item,
    expires_at: link.expiresAt.toISOString(),
    allow_download: link.allowDownload,
    dicomweb_root: `/api/s/${token}/dicomweb`,
  };
  return opened;
}
