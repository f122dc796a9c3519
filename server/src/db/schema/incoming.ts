import { bigint, date, index, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { users } from './users.js';

/**
 * Legacy: studies received without a patient before migration 0010, when they waited outside the
 * archive. They are now archive items without a patient (archive_items.receiver_id); the server files
 * what is left here that way once at start (incoming.service.ts refileLegacyIncoming).
 */
export const incomingStudies = pgTable(
  'incoming_studies',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    receiverId: uuid('receiver_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    studyInstanceUid: text('study_instance_uid').notNull(),
    studyDate: date('study_date', { mode: 'string' }),
    studyDescription: text('study_description').notNull().default(''),
    patientNameInFile: text('patient_name_in_file').notNull().default(''),
    patientBirthDateInFile: date('patient_birth_date_in_file', { mode: 'string' }),
    source: text('source').notNull().default(''),
    receivedAt: timestamp('received_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
  },
  (table) => [
    uniqueIndex('incoming_studies_receiver_study_unique').on(table.receiverId, table.studyInstanceUid),
    index('incoming_studies_receiver_idx').on(table.receiverId, table.receivedAt.desc()),
  ],
);

/** One received file, stored byte for byte under incoming/<study id>/. */
export const incomingInstances = pgTable(
  'incoming_instances',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    incomingId: uuid('incoming_id')
      .notNull()
      .references(() => incomingStudies.id, { onDelete: 'cascade' }),
    sopInstanceUid: text('sop_instance_uid').notNull(),
    seriesInstanceUid: text('series_instance_uid').notNull(),
    modality: text('modality').notNull().default(''),
    storageKey: text('storage_key').notNull(),
    size: bigint('size', { mode: 'number' }).notNull(),
  },
  (table) => [uniqueIndex('incoming_instances_sop_unique').on(table.incomingId, table.sopInstanceUid)],
);
