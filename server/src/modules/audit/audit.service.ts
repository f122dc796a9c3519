import {
  displayName,
  type AccessAction,
  type AccessHistoryEntry,
  type AccessHistoryPage,
  type ItemSummary,
} from '@ra/shared';
import { getTableColumns } from 'drizzle-orm';
import type { AppContext } from '../../context.js';
import type { Queryable } from '../../db/client.js';
import { auditLog } from '../../db/schema/audit.js';
import { decodeCursor, encodeCursor } from '../../lib/cursor.js';
import type { Actor } from '../../lib/actor.js';
import { may } from '../access/index.js';
import * as auditRepo from './audit.repository.js';
import { accessHistoryOfPatient, type AccessHistoryRow } from './audit.repository.js';
import type { AuditEntry } from './audit-entry.js';

export type { AuditAction, AuditEntry, AuditRecord } from './audit-entry.js';

/** Writes a change's audit row in the change's own transaction. */
export async function auditChange(db: Queryable, entry: AuditEntry): Promise<void> {
  await db.insert(auditLog).values(entry);
}

/**
 * A change's audit row as a JSON object of audit_log's columns, for a database function that
 * records the change with the rows it makes (file_study_instances, migration 0018): the row is
 * written if and only if that statement succeeds.
 */
export function auditRowOf(entry: AuditEntry): Record<string, unknown> {
  const columns = getTableColumns(auditLog);
  return Object.fromEntries(
    Object.entries(entry).map(([field, value]) => [
      columns[field as keyof typeof columns].name,
      value ?? null,
    ]),
  );
}

/** A patient's change to their own profile (picture, email) is a change to their record; staff's are not. */
export async function auditOwnProfileChange(
  db: Queryable,
  user: { id: string; role: string },
  ip: string | null,
): Promise<void> {
  if (user.role === 'PATIENT') {
    await auditChange(db, {
      actorId: user.id,
      patientId: user.id,
      action: 'update',
      recordType: 'profile',
      recordId: user.id,
      ip,
    });
  }
}

/**
 * Records a request's reads before the data is sent: the promise settles once the rows are
 * committed, so a read that cannot be recorded fails (500) rather than leave no trace, and
 * nothing waits in memory where a crash would lose it once the caller has been answered.
 */
export function auditReads(ctx: AppContext, entries: AuditEntry[]): Promise<void> {
  return ctx.readAudit.write(entries);
}

/**
 * As `auditReads`, for reads a client repeats many times a minute (a viewer's frame requests): a
 * read identical to one recorded in the last minute (read-audit-writer.ts) is on record already.
 */
export function auditRepeatedReads(ctx: AppContext, entries: AuditEntry[]): Promise<void> {
  return ctx.readAudit.writeUnlessRepeated(entries);
}

/** The contract's action for an audit row (the repository selects only rows that have one). */
function accessActionOf(row: AccessHistoryRow): AccessAction {
  if (row.action === 'download') {
    return 'download';
  }
  switch (row.recordType) {
    case 'share':
      return 'share_open';
    case 'image':
      return 'view';
    case 'profile':
      return 'profile';
    default:
      return 'list';
  }
}

/**
 * Files of archive items are stored under their item's uid (images/<uid>.png, thumbnails/<uid>.webp,
 * previews/<uid>.png); a DICOMweb retrieve is recorded as studies/<uid>.
 */
const ITEM_FILE = /^(?:images|thumbnails|previews|studies|downloads)\/([0-9a-f-]{36})(?:[./]|$)/;

function accessedItemOf(row: AccessHistoryRow): string | null {
  if (row.action === 'download') {
    return ITEM_FILE.exec(row.recordId)?.[1] ?? null;
  }
  return row.recordType === 'image' || row.recordType === 'share' ? row.recordId : null;
}

function toAccessHistoryEntry(row: AccessHistoryRow, items: Map<string, ItemSummary>): AccessHistoryEntry {
  const itemUid = accessedItemOf(row);
  const actor =
    row.actorId === null || row.actorRole === null
      ? null
      : {
          uid: row.actorId,
          role: row.actorRole,
          full_name: displayName({
            title: row.actorTitle ?? '',
            first_name: row.actorFirstName ?? '',
            last_name: row.actorLastName ?? '',
          }),
        };
  // A share link's reads are audited with the link's id as the actor (shares module).
  const isShare = row.shareCreatedAt !== null;
  return {
    at: row.createdAt.toISOString(),
    actor,
    via: isShare ? 'share_link' : 'account',
    who: isShare
      ? { kind: 'share', label: `Link shared ${row.shareCreatedAt!.toISOString().slice(0, 10)}` }
      : actor && { kind: 'account', label: actor.full_name },
    action: accessActionOf(row),
    item_uid: itemUid,
    item: itemUid === null ? null : (items.get(itemUid) ?? null),
  };
}

/** Who else has looked at the patient's records, newest first (docs/api.md §19). */
export async function listAccessHistory(
  ctx: AppContext,
  patient: Actor,
  page: { limit: number; cursor?: string },
  summarizeItems: (ids: string[]) => Promise<Map<string, ItemSummary>>,
): Promise<AccessHistoryPage> {
  const after = decodeCursor(page.cursor, 2) as [string, string] | undefined;
  // It names the patient's care team: an account that may not read its own record sees none of it.
  if (!(await may(ctx, patient, 'patient:read', patient.id))) {
    return { entries: [], next_cursor: null };
  }
  const rows = await accessHistoryOfPatient(ctx.db, patient.id, { limit: page.limit + 1, after });
  const pageRows = rows.slice(0, page.limit);
  const last = pageRows.at(-1);
  // Each entry names its item as the patient sees it, so that visits read "CT Chest", not a uid.
  const itemUids = pageRows.map(accessedItemOf).filter((uid): uid is string => uid !== null);
  const items = await summarizeItems(itemUids);
  return {
    entries: pageRows.map((row) => toAccessHistoryEntry(row, items)),
    next_cursor:
      rows.length > page.limit && last ? encodeCursor([last.createdAt.toISOString(), String(last.id)]) : null,
  };
}

export type { PatientAuditTrailRow } from './audit.repository.js';

/** The patient an operator asks the audit trail of, by address (`npm run admin -- audit-trail`). */
export function findPatientForAuditTrail(db: Queryable, email: string) {
  return auditRepo.findPatientForAuditTrail(db, email);
}

/** Every audit row about a patient, oldest first, since a date when given (the operator's trail). */
export function listPatientAuditTrail(db: Queryable, patientId: string, since?: Date) {
  return auditRepo.listPatientAuditTrail(db, patientId, since);
}
