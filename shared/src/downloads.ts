import { z } from 'zod';
import { ROLES } from './roles.js';
import { ITEM_KINDS, studySummarySchema } from './studies.js';

/*
 * The ZIP downloads of an item or of a patient's whole archive (docs/api.md §12.4): the facts the
 * ZIP's archive.json holds, which its index.html shows as a page.
 */

/** A key image as the download names it: the frame, and the file of the ZIP that holds it. */
export const downloadKeyImageSchema = z.object({
  sop_instance_uid: z.string(),
  frame: z.number().int(),
  window: z.object({ center: z.number(), width: z.number() }),
  series_number: z.number().int().nullable(),
  instance_number: z.number().int().nullable(),
  /** The path inside the ZIP, e.g. `DICOM/S0001/SE0001/IM000001`; null when the instance is not in it. */
  file: z.string().nullable(),
});
export type DownloadKeyImage = z.infer<typeof downloadKeyImageSchema>;

/** One author's note on an item: the physician's clinical question or a radiologist's analysis. */
export const downloadNoteSchema = z.object({
  role: z.enum(ROLES),
  full_name: z.string(),
  note: z.string(),
  /** The radiologist the physician recommended, physicians only. */
  recommendation: z.string().nullable(),
  key_images: z.array(downloadKeyImageSchema),
  updated_at: z.string(),
});
export type DownloadNote = z.infer<typeof downloadNoteSchema>;

export const downloadItemSchema = z.object({
  uid: z.uuid(),
  kind: z.enum(ITEM_KINDS),
  /** When the item was stored in the archive (ISO 8601). */
  created_at: z.string(),
  uploaded_by: z.string(),
  /** Null for raster images. */
  study: studySummarySchema.nullable(),
  /** The ZIP paths of the item's files: the raster image, or every DICOM instance of the study. */
  files: z.array(z.string()),
  notes: z.array(downloadNoteSchema),
});
export type DownloadItem = z.infer<typeof downloadItemSchema>;

/** archive.json at the root of a download ZIP. */
export const downloadManifestSchema = z.object({
  format: z.literal('radiology-archive-download/1'),
  patient: z.object({ uid: z.uuid(), full_name: z.string(), dob: z.string().nullable() }),
  /** Whether this is one item or the patient's whole archive. */
  scope: z.enum(['item', 'archive']),
  items: z.array(downloadItemSchema),
  /** `DICOMDIR` when the ZIP holds DICOM files, else null. */
  dicomdir: z.string().nullable(),
});
export type DownloadManifest = z.infer<typeof downloadManifestSchema>;

export const DOWNLOAD_PATHS = {
  item: (uid: string) => `/api/image/${uid}/download`,
  archive: '/api/user/archive/download',
  /** A share link's item, when the link allows downloading (docs/api.md §20). */
  shared: (token: string) => `/api/s/${token}/download`,
} as const;
