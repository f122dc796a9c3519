import { and, asc, eq, gte } from 'drizzle-orm';
import type { Role } from '@ra/shared';
import type { Queryable } from '../../db/client.js';
import { auditLog, users } from '../../db/schema/index.js';

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
