import { bigserial, index, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';

/**
 * Append-only record of who read or changed which patient record or file. No API updates or
 * deletes it; actor and patient are plain ids (no foreign keys) so the trail outlives accounts.
 */
export const auditLog = pgTable(
  'audit_log',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    actorId: uuid('actor_id'),
    patientId: uuid('patient_id'),
    action: text('action').notNull(),
    recordType: text('record_type').notNull(),
    recordId: text('record_id').notNull(),
    ip: text('ip'),
    createdAt: timestamp('created_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
  },
  (table) => [index('audit_log_patient_idx').on(table.patientId, table.createdAt)],
);
