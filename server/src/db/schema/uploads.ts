import { bigint, index, integer, pgEnum, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { users } from './users.js';

export const uploadPurpose = pgEnum('upload_purpose', [
  'image',
  'profile',
  'dicom',
  'dicom-zip',
  'dicom-bundle',
]);

/** A tus upload: who started it, for what, and whether it finished and was claimed. */
export const uploads = pgTable(
  'uploads',
  {
    id: text('id').primaryKey(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    purpose: uploadPurpose('purpose').notNull(),
    filename: text('filename').notNull().default(''),
    size: bigint('size', { mode: 'number' }).notNull(),
    /** Real type read from the bytes once the upload finished. */
    contentType: text('content_type'),
    width: integer('width'),
    height: integer('height'),
    createdAt: timestamp('created_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
    finishedAt: timestamp('finished_at', { withTimezone: true, precision: 3 }),
    claimedAt: timestamp('claimed_at', { withTimezone: true, precision: 3 }),
  },
  (table) => [index('uploads_user_idx').on(table.userId), index('uploads_created_idx').on(table.createdAt)],
);
