import { sql } from 'drizzle-orm';
import {
  bigint,
  check,
  index,
  integer,
  jsonb,
  pgEnum,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import type { KeyImage } from '@ra/shared';
import { roleEnum, users } from './users.js';

/** What an archive item is: a raster image, or a DICOM study (its series and instances in studies.ts). */
export const itemKind = pgEnum('item_kind', ['image', 'study']);

/**
 * The archive: each row is one item of a patient's record, a raster image or a DICOM study (its
 * series and instances hang off the item id in studies.ts). Wire names still say "image".
 */
export const archiveItems = pgTable(
  'archive_items',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    /** Null only for a study received without a patient, waiting in its receiver's Incoming list. */
    patientId: uuid('patient_id').references(() => users.id, { onDelete: 'cascade' }),
    /** The physician whose Incoming list holds the study until they file it under a patient. */
    receiverId: uuid('receiver_id').references(() => users.id, { onDelete: 'cascade' }),
    uploaderId: uuid('uploader_id')
      .notNull()
      .references(() => users.id),
    kind: itemKind('kind').notNull().default('image'),
    /** The file itself; for a study, its rendered preview (written by the preview job). */
    storageKey: text('storage_key').notNull(),
    thumbnailKey: text('thumbnail_key'),
    contentType: text('content_type').notNull(),
    filename: text('filename').notNull().default(''),
    size: bigint('size', { mode: 'number' }).notNull(),
    width: integer('width').notNull(),
    height: integer('height').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
  },
  (table) => [
    index('archive_items_patient_created_idx').on(table.patientId, table.createdAt.desc(), table.id.desc()),
    index('archive_items_received_idx')
      .on(table.receiverId, table.createdAt.desc())
      .where(sql`${table.patientId} is null`),
    // What each uploader stores, for the storage quota (STORAGE_QUOTA_GB). Not on `size`: filing
    // raises an item's size with every instance, and an update that changes no indexed column stays
    // on its page (a HOT update) instead of leaving a dead row and index entries behind each time,
    // which the embedded database, with no autovacuum, keeps until its upkeep job's next VACUUM
    // (migration 0022, jobs/database-upkeep.job.ts).
    index('archive_items_uploader_idx').on(table.uploaderId),
    check(
      'archive_items_patient_or_receiver',
      sql`${table.patientId} is not null or (${table.receiverId} is not null and ${table.kind} = 'study')`,
    ),
  ],
);

/** One note per author per archive item; physicians may name a recommended radiologist. */
export const itemNotes = pgTable(
  'item_notes',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    itemId: uuid('item_id')
      .notNull()
      .references(() => archiveItems.id, { onDelete: 'cascade' }),
    authorId: uuid('author_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    authorRole: roleEnum('author_role').notNull(),
    note: text('note').notNull().default(''),
    recommendationId: uuid('recommendation_id').references(() => users.id, { onDelete: 'set null' }),
    /** The frames of a study the note points to, each with its window (docs/api.md §10.4). */
    keyImages: jsonb('key_images').$type<KeyImage[]>().notNull().default([]),
    createdAt: timestamp('created_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
  },
  (table) => [uniqueIndex('item_notes_item_author_unique').on(table.itemId, table.authorId)],
);
