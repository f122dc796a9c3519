import {
  bigint,
  boolean,
  date,
  index,
  integer,
  jsonb,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { archiveItems } from './archive-items.js';

/**
 * A DICOM study filed as an archive item (the archive_items row with kind 'study'): what the files say
 * about it, kept beside the item so that lists need no file read. UIDs are chosen by whoever wrote
 * the files, so they are unique per namespace — the patient the study is filed under, or the
 * receiver whose Incoming list holds it — never archive-wide: the same UIDs filed for someone
 * else are an independent copy that neither reveals nor blocks this one.
 */
export const studies = pgTable(
  'studies',
  {
    itemId: uuid('item_id')
      .primaryKey()
      .references(() => archiveItems.id, { onDelete: 'cascade' }),
    /** The patient the study is filed under, or its receiver while it waits in their Incoming list. */
    namespaceId: uuid('namespace_id').notNull(),
    studyInstanceUid: text('study_instance_uid').notNull(),
    studyDate: date('study_date', { mode: 'string' }),
    studyTime: text('study_time').notNull().default(''),
    studyDescription: text('study_description').notNull().default(''),
    accessionNumber: text('accession_number').notNull().default(''),
    studyId: text('study_id').notNull().default(''),
    referringPhysicianName: text('referring_physician_name').notNull().default(''),
    /** What the files say about the patient, which may differ from the patient it is filed under. */
    patientNameInFile: text('patient_name_in_file').notNull().default(''),
    patientIdInFile: text('patient_id_in_file').notNull().default(''),
    patientBirthDateInFile: date('patient_birth_date_in_file', { mode: 'string' }),
    patientSexInFile: text('patient_sex_in_file').notNull().default(''),
    modalities: text('modalities').array().notNull().default([]),
    seriesCount: integer('series_count').notNull().default(0),
    instanceCount: integer('instance_count').notNull().default(0),
    /** Who sent a study received without a patient (the STOW-RS client's User-Agent), for the Incoming list. */
    receivedFrom: text('received_from').notNull().default(''),
    /** Why the study has no preview, when it has none (for example only structured reports). */
    previewNote: text('preview_note'),
  },
  (table) => [uniqueIndex('studies_namespace_uid_unique').on(table.namespaceId, table.studyInstanceUid)],
);

export const dicomSeries = pgTable(
  'dicom_series',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    itemId: uuid('item_id')
      .notNull()
      .references(() => archiveItems.id, { onDelete: 'cascade' }),
    seriesInstanceUid: text('series_instance_uid').notNull(),
    modality: text('modality').notNull().default(''),
    seriesNumber: integer('series_number'),
    seriesDescription: text('series_description').notNull().default(''),
    bodyPartExamined: text('body_part_examined').notNull().default(''),
    instanceCount: integer('instance_count').notNull().default(0),
    /** The series' thumbnail (WebP), once rendered; null for series of non-image objects. */
    thumbnailKey: text('thumbnail_key'),
    createdAt: timestamp('created_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
  },
  (table) => [
    index('dicom_series_item_idx').on(table.itemId, table.seriesNumber),
    uniqueIndex('dicom_series_item_uid_unique').on(table.itemId, table.seriesInstanceUid),
  ],
);

/** One stored Part 10 file, byte for byte as received, with its attributes as DICOM JSON. */
export const dicomInstances = pgTable(
  'dicom_instances',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    itemId: uuid('item_id')
      .notNull()
      .references(() => archiveItems.id, { onDelete: 'cascade' }),
    seriesId: uuid('series_id')
      .notNull()
      .references(() => dicomSeries.id, { onDelete: 'cascade' }),
    sopInstanceUid: text('sop_instance_uid').notNull(),
    sopClassUid: text('sop_class_uid').notNull(),
    transferSyntaxUid: text('transfer_syntax_uid').notNull(),
    instanceNumber: integer('instance_number'),
    numberOfFrames: integer('number_of_frames').notNull().default(1),
    rows: integer('rows'),
    columns: integer('columns'),
    isImage: boolean('is_image').notNull(),
    storageKey: text('storage_key').notNull(),
    filename: text('filename').notNull().default(''),
    size: bigint('size', { mode: 'number' }).notNull(),
    /** The dataset without file meta and bulk data (PS3.18 F.2), served as WADO-RS metadata. */
    metadata: jsonb('metadata').notNull(),
    /**
     * Where uncompressed frames lie in the file, so WADO-RS reads a frame's bytes and nothing else
     * (dicom-instance.ts NativeFrames); null when frames must be taken out by reading the file.
     */
    pixelDataOffset: bigint('pixel_data_offset', { mode: 'number' }),
    frameBytes: bigint('frame_bytes', { mode: 'number' }),
    /**
     * Where compressed frames lie in the file: n + 1 offsets, frame n (from 1) being the fragment
     * items from offset n − 1 to offset n (dicom-instance.ts frameOffsetsOf), so WADO-RS reads one
     * frame's bytes and not the file; null when they were not indexed.
     */
    frameOffsets: jsonb('frame_offsets').$type<number[]>(),
    createdAt: timestamp('created_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
  },
  (table) => [
    index('dicom_instances_series_idx').on(table.seriesId, table.instanceNumber),
    uniqueIndex('dicom_instances_item_sop_unique').on(table.itemId, table.sopInstanceUid),
    index('dicom_instances_sop_idx').on(table.sopInstanceUid),
  ],
);
