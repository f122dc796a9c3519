import { z } from 'zod';
import { LIMITS } from './fields.js';
import { ROLES } from './roles.js';
import { newItemFields } from './new-item-fields.js';
import { ITEM_KINDS, studySummarySchema } from './studies.js';
import { keyImageViewSchema, keyImagesField } from './annotations.js';

export const authorSchema = z.object({
  uid: z.uuid(),
  role: z.enum(ROLES),
  full_name: z.string(),
  note: z.string(),
  /** The recommended radiologist's "<title> <first> <last>", physicians only. */
  recommendation: z.string().nullable(),
  /** The frames this author's note points to (studies only); empty when none. */
  key_images: z.array(keyImageViewSchema),
  updatedAt: z.string(),
});
export type Author = z.infer<typeof authorSchema>;

/** An archive item: a raster image, or a DICOM study whose `url`/`thumbnail_url` are its preview. */
export const imageSchema = z.object({
  uid: z.uuid(),
  kind: z.enum(ITEM_KINDS),
  /** Null for raster images. */
  study: studySummarySchema.nullable(),
  url: z.string(),
  thumbnail_url: z.string().nullable(),
  content_type: z.string(),
  width: z.number().int(),
  height: z.number().int(),
  createdAt: z.string(),
  /** The patient the item is filed under (whose list, §10.1, holds it). */
  patient_uid: z.uuid(),
  first_name: z.string(),
  last_name: z.string(),
  uploadedBy_title: z.string(),
  uploadedBy_first_name: z.string(),
  uploadedBy_last_name: z.string(),
  authors: z.array(authorSchema),
});
export type Image = z.infer<typeof imageSchema>;

/** The physician's note on an item (the clinical question), or null when they wrote none. */
export function physicianNoteOf(item: { authors: readonly Author[] }): string | null {
  return item.authors.find((author) => author.role === 'PHYSICIAN' && author.note !== '')?.note ?? null;
}

/**
 * What tells an archive item apart in a list that names it (invoices, access history): its kind,
 * the study's summary (null for a raster image), when it was stored and the physician's note.
 */
export const itemSummarySchema = z.object({
  kind: z.enum(ITEM_KINDS),
  study: studySummarySchema.nullable(),
  createdAt: z.string(),
  /** The physician's note on the item, null when none. */
  physician_note: z.string().nullable(),
});
export type ItemSummary = z.infer<typeof itemSummarySchema>;

export const imagePageSchema = z.object({
  images: z.array(imageSchema),
  next_cursor: z.string().nullable(),
});
export type ImagePage = z.infer<typeof imagePageSchema>;

export const imageResponseSchema = z.object({ image: imageSchema });

const noteField = z
  .string({ error: 'Note must be text.' })
  .trim()
  .max(LIMITS.text, { error: 'Note is too long.' });

export const uploadImageBodySchema = z.object({
  ...newItemFields,
  url: z
    .string({ error: 'The upload was not found or is not finished.' })
    .trim()
    .min(1, { error: 'The upload was not found or is not finished.' }),
});
export type UploadImageBody = z.input<typeof uploadImageBodySchema>;

export const uploadImageResponseSchema = z.object({ success: z.literal(true), uid: z.uuid() });

/**
 * The author's note replaces their stored one; an omitted `key_images` keeps the stored ones, so a
 * client that edits only the text (the note form) cannot erase the key images chosen in the viewer.
 */
export const updateNoteBodySchema = z.object({
  note: noteField.default(''),
  key_images: keyImagesField.optional(),
});
export type UpdateNoteBody = z.input<typeof updateNoteBodySchema>;
export const updateNoteResponseSchema = z.object({ success: z.literal(true), note: z.string() });

/** Upload limits of docs/api.md §11.1. */
export const UPLOAD_LIMITS = {
  image: 2 * 1024 ** 3,
  profile: 10 * 1024 ** 2,
  /** One DICOM instance (docs/api.md §11.1). */
  dicom: 2 * 1024 ** 3,
  /** A ZIP of DICOM files, read with bounds on entries and expansion. */
  'dicom-zip': 2 * 1024 ** 3,
  /** Many DICOM files as one upload (dicom-bundle.ts). */
  'dicom-bundle': 2 * 1024 ** 3,
} as const;
export type UploadPurpose = keyof typeof UPLOAD_LIMITS;

/**
 * Files at most this large go in one request; larger ones in resumable chunks
 * (docs/architecture.md §12.1).
 */
export const RESUMABLE_THRESHOLD_BYTES = 256 * 1024;
export const MAX_CHUNK_BYTES = 32 * 1024 * 1024;
