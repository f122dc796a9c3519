import { and, asc, desc, eq, gte, or, sql } from 'drizzle-orm';
import type { Role } from '@ra/shared';
import type { Queryable } from '../../db/client.js';
import { auditLog } from '../../db/schema/audit.js';
import { shareLinks } from '../../db/schema/shares.js';
import { users } from '../../db/schema/users.js';

/** One row of the audit trail, as written. */
export type AuditRow = Pick<
  typeof auditLog.$inferInsert,
  'actorId' | 'patientId' | 'action' | 'recordType' | 'recordId' | 'ip'
>;

/**
 * Appends rows in one statement whatever their number: each column travels as one array, so the
 * statement is the same short text every time and costs the query builder almost nothing.
 */
export async function appendAuditRows(db: Queryable, rows: readonly AuditRow[]): Promise<void> {
  const column = <K extends keyof AuditRow>(key: K) => sql.param(rows.map((row) => row[key] ?? null));
  await db.execute(
    sql`insert into ${auditLog} (actor_id, patient_id, action, record_type, record_id, ip)
        select * from unnest(${column('actorId')}::uuid[], ${column('patientId')}::uuid[],
          ${column('action')}::text[], ${column('recordType')}::text[], ${column('recordId')}::text[],
          ${column('ip')}::text[])`,
  );
}

/*
 * Queries of the access history (docs/api.md §19). Function names start with `accessHistory` so
 * that other audit queries (the operator CLI's) can live beside them.
 */

/** The audit rows that are accesses to a record: reads and downloads, not changes. */
const isAccess = or(
  and(
    eq(auditLog.action, 'read'),
    sql`${auditLog.recordType} in ('image-list', 'patient-list', 'patient', 'image', 'profile', 'share')`,
  ),
  and(eq(auditLog.action, 'download'), eq(auditLog.recordType, 'file')),
);

/**
 * Accesses to a patient's records by anyone but the patient, newest first, keyset-paged on
 * (created_at, id) over the audit_log(patient_id, created_at) index; `after` is the previous
 * page's last (createdAt, id).
 */
export function accessHistoryOfPatient(
  db: Queryable,
  patientId: string,
  page: { limit: number; after?: [string, string] },
) {
  const after = page.after
    ? sql`(${auditLog.createdAt}, ${auditLog.id}) < (${page.after[0]}::timestamptz, ${page.after[1]}::bigint)`
    : undefined;
  return db
    .select({
      id: auditLog.id,
      createdAt: auditLog.createdAt,
      action: auditLog.action,
      recordType: auditLog.recordType,
      recordId: auditLog.recordId,
      actorId: users.id,
      actorRole: users.role,
      actorTitle: users.title,
      actorFirstName: users.firstName,
      actorLastName: users.lastName,
      /** Set when the actor was a share link (shares module): when the link was made. */
      shareCreatedAt: shareLinks.createdAt,
    })
    .from(auditLog)
    .leftJoin(users, eq(users.id, auditLog.actorId))
    .leftJoin(shareLinks, eq(shareLinks.id, auditLog.actorId))
    .where(
      and(
        eq(auditLog.patientId, patientId),
        // The patient's own reads are not news to them.
        sql`${auditLog.actorId} is distinct from ${patientId}`,
        isAccess,
        after,
      ),
    )
    .orderBy(desc(auditLog.createdAt), desc(auditLog.id))
    .limit(page.limit);
}

export type AccessHistoryRow = Awaited<ReturnType<typeof accessHistoryOfPatient>>[number];

/** The patient account with this (trimmed, lower-cased) email, for the operator's audit trail. */
export async function findPatientForAuditTrail(db: Queryable, email: string) {
  const [row] = await db
    .select({ id: users.id, email: users.email })
    .from(users)
    .where(and(eq(users.email, email), eq(users.role, 'PATIENT')));
  return row;
}

export interface PatientAuditTrailRow {
  createdAt: Date;
  action: string;
  recordType: string;
  recordId: string;
  ip: string | null;
  /** Null when the actor is unknown (a system action, or an account that no longer exists). */
  actor: { email: string; role: Role; title: string; firstName: string; lastName: string } | null;
}

/** Every audit row about one patient, oldest first, from `since` on when given. */
export async function listPatientAuditTrail(
  db: Queryable,
  patientId: string,
  since?: Date,
): Promise<PatientAuditTrailRow[]> {
  const rows = await db
    .select({
      createdAt: auditLog.createdAt,
      action: auditLog.action,
      recordType: auditLog.recordType,
      recordId: auditLog.recordId,
      ip: auditLog.ip,
      actorEmail: users.email,
      actorRole: users.role,
      actorTitle: users.title,
      actorFirstName: users.firstName,
      actorLastName: users.lastName,
    })
    .from(auditLog)
    .leftJoin(users, eq(users.id, auditLog.actorId))
    .where(and(eq(auditLog.patientId, patientId), since ? gte(auditLog.createdAt, since) : undefined))
    .orderBy(asc(auditLog.createdAt), asc(auditLog.id));
  return rows.map((row) => ({
    createdAt: row.createdAt,
    action: row.action,
    recordType: row.recordType,
    recordId: row.recordId,
    ip: row.ip,
    actor:
      row.actorEmail === null || row.actorRole === null
        ? null
        : {
            email: row.actorEmail,
            role: row.actorRole,
            title: row.actorTitle ?? '',
            firstName: row.actorFirstName ?? '',
            lastName: row.actorLastName ?? '',
          },
  }));
}
