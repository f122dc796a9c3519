import type { FastifyBaseLogger } from 'fastify';
import type { Db, Queryable } from '../../db/client.js';
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
 * Reads are recorded off the request path: entries are buffered and written in batches, and the
 * buffer is flushed on shutdown so a clean stop loses none.
 */
export class ReadAuditor {
  private buffer: AuditEntry[] = [];
  private flushing: Promise<void> | null = null;
  private readonly timer: NodeJS.Timeout;

  constructor(
    private readonly db: Db,
    private readonly log: FastifyBaseLogger,
    intervalMs = 1000,
  ) {
    this.timer = setInterval(() => void this.flush(), intervalMs);
    this.timer.unref();
  }

  record(...entries: AuditEntry[]): void {
    this.buffer.push(...entries);
  }

  async flush(): Promise<void> {
    if (this.flushing) {
      await this.flushing;
    }
    if (this.buffer.length === 0) {
      return;
    }
    const batch = this.buffer;
    this.buffer = [];
    this.flushing = this.db
      .insert(auditLog)
      .values(batch)
      .then(() => undefined)
      .catch((err: unknown) => {
        // Keep them for the next attempt rather than lose the trail.
        this.buffer.unshift(...batch);
        this.log.error({ err }, 'audit write failed');
      })
      .finally(() => {
        this.flushing = null;
      });
    await this.flushing;
  }

  async close(): Promise<void> {
    clearInterval(this.timer);
    await this.flush();
  }
}
