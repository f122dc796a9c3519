import type { Queryable } from '../../db/client.js';
import { auditLog } from '../../db/schema/index.js';

export type AuditAction = 'read' | 'create' | 'update' | 'download';
export type AuditRecord = 'patient' | 'image' | 'image-list' | 'note' | 'file' | 'patient-list' | 'profile';

export interface AuditEntry {
  actorId: string | null;
  patientId: string | null;
  action: AuditAction;
  recordType: AuditRecord;
  recordId: string;
  ip: string | null;
}

/** Writes a change's audit row in the change's own transaction. */
export async function auditChange(db: Queryable, entry: AuditEntry): Promise<void> {
  await db.insert(auditLog).values(entry);
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
 * Writes the audit rows of one request's reads in one INSERT, before the data is sent: a read
 * that cannot be recorded fails (500) rather than leave no trace, and nothing is buffered in
 * memory where a crash would lose it.
 */
export async function auditReads(db: Queryable, entries: AuditEntry[]): Promise<void> {
  if (entries.length > 0) {
    await db.insert(auditLog).values(entries);
  }
}
