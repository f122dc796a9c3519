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

export const uploadPurpose = pgEnum('upload_purpose', [
  'image',
  'profile',
  'dicom',
  'dicom-zip',
  'dicom-bundle',
]);

/** What an archive item is: a raster image, or a DICOM study (its series and instances in studies.ts). */
export const itemKind = pgEnum('item_kind', ['image', 'study']);

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

export const images = pgTable(
  'images',
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
    index('images_patient_created_idx').on(table.patientId, table.createdAt.desc(), table.id.desc()),
    index('images_received_idx')
      .on(table.receiverId, table.createdAt.desc())
      .where(sql`${table.patientId} is null`),
    // What each uploader stores, for the storage quota (STORAGE_QUOTA_GB).
    index('images_uploader_size_idx').on(table.uploaderId, table.size),
    check(
      'images_patient_or_receiver',
      sql`${table.patientId} is not null or (${table.receiverId} is not null and ${table.kind} = 'study')`,
    ),
  ],
);

/** One note per author per image; physicians may name a recommended radiologist. */
export const imageNotes = pgTable(
  'image_notes',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    imageId: uuid('image_id')
      .notNull()
      .references(() => images.id, { onDelete: 'cascade' }),
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
  (table) => [uniqueIndex('image_notes_image_author_unique').on(table.imageId, table.authorId)],
);
