import { z } from 'zod';
import { newItemFields } from './new-item-fields.js';

/** What a DICOM study item carries beside the fields every archive item has (docs/api.md §10). */
export const studySummarySchema = z.object({
  study_instance_uid: z.string(),
  /** YYYY-MM-DD, or null when the files give none. */
  study_date: z.string().nullable(),
  study_description: z.string(),
  modalities: z.array(z.string()),
  series_count: z.number().int(),
  instance_count: z.number().int(),
  /** The Patient's Name as the files give it ("Family^Given"), kept as evidence of what was filed. */
  patient_name_in_file: z.string(),
  /** YYYY-MM-DD, or null when the files give none. */
  patient_birth_date_in_file: z.string().nullable(),
});
export type StudySummary = z.infer<typeof studySummarySchema>;

export const ITEM_KINDS = ['image', 'study'] as const;
export type ItemKind = (typeof ITEM_KINDS)[number];

/** The most files one filing request may name (a CD holds a few thousand at most). */
export const MAX_STUDY_UPLOADS = 10_000;

export const STUDY_MESSAGES = {
  noDicom: 'No DICOM images were found.',
  patientMismatch: 'The files name a different patient.',
  notDicom: 'Not a DICOM file.',
  unreadable: 'The DICOM file could not be read.',
  duplicate: "Already in this patient's archive.",
  /** Assigning a waiting study to a patient who already holds a study of the same UID. */
  alreadyFiled: 'This patient already has a study with the same Study Instance UID.',
  /** A radiologist adds to a patient's studies only those they may read. */
  cannotAddToStudy: 'You cannot add images to a study you cannot open.',
  /** The study was removed or filed again while these files were being filed. */
  studyChanged: 'The study changed while the files were being filed. Please try again.',
  tooManyUploads: `At most ${MAX_STUDY_UPLOADS} files can be filed at once.`,
  /** Refusals of one file that the archive cannot keep as it is (each file is refused on its own). */
  nulInText: 'A text attribute of the file holds a NUL character.',
  numberOutOfRange: 'A number in the file is too large for its attribute.',
  badTransferSyntax: 'The file names a transfer syntax that is not a valid UID.',
  metadataTooLarge: 'The attributes of the file are larger than the archive keeps for one instance.',
  processingFailed: 'The file could not be filed. Please try again.',
  storageFull: 'Your storage is full.',
} as const;

export const uploadStudyBodySchema = z.object({
  ...newItemFields,
  uploads: z
    .array(z.string({ error: 'The upload was not found or is not finished.' }).trim().min(1), {
      error: STUDY_MESSAGES.noDicom,
    })
    .min(1, { error: STUDY_MESSAGES.noDicom })
    .max(MAX_STUDY_UPLOADS, { error: STUDY_MESSAGES.tooManyUploads }),
  confirm_patient_mismatch: z.boolean().optional().default(false),
});
export type UploadStudyBody = z.input<typeof uploadStudyBodySchema>;

/** A file that was not filed, and why (its name as uploaded, with its path inside a ZIP). */
export const skippedFileSchema = z.object({ name: z.string(), reason: z.string() });
export type SkippedFile = z.infer<typeof skippedFileSchema>;

export const uploadStudyResponseSchema = z.object({
  success: z.literal(true),
  items: z.array(
    z.object({
      uid: z.uuid(),
      study_instance_uid: z.string(),
      /** Instances of this study stored by this request. */
      instances: z.number().int(),
      /** Files of this study that were not stored again (the same SOP Instance UID). */
      skipped: z.array(skippedFileSchema),
    }),
  ),
  /** Files that belong to no study: not DICOM, or DICOM that cannot be read. */
  skipped: z.array(skippedFileSchema),
});
export type UploadStudyResponse = z.infer<typeof uploadStudyResponseSchema>;

/** One person the files name: as the files write the name ("Family^Given"), and how many files do. */
export const personInFilesSchema = z.object({
  name: z.string(),
  birth_date: z.string().nullable(),
  files: z.number().int().positive(),
});
export type PersonInFiles = z.infer<typeof personInFilesSchema>;

/**
 * The 409 answer when the files name someone else: every distinct name and birth date the files
 * give (the chosen patient's own included, when some files name them), so the client shows them all
 * and asks to confirm.
 */
export const patientMismatchSchema = z.object({
  success: z.literal(false),
  msg: z.literal(STUDY_MESSAGES.patientMismatch),
  found: z.array(personInFilesSchema).min(1),
});
export type PatientMismatch = z.infer<typeof patientMismatchSchema>;

/**
 * A study received by STOW-RS without a patient, waiting in its receiver's Incoming list
 * (docs/api.md §12.3).
 */
export const incomingStudySchema = z.object({
  uid: z.uuid(),
  study: studySummarySchema,
  received_at: z.string(),
  /** Who sent it: the DICOMweb client's name (User-Agent) as it gave it. */
  source: z.string(),
});
export type IncomingStudy = z.infer<typeof incomingStudySchema>;

export const incomingListSchema = z.object({ studies: z.array(incomingStudySchema) });
export type IncomingList = z.infer<typeof incomingListSchema>;

export const assignIncomingBodySchema = z.object({
  patient: newItemFields.patient,
  confirm_patient_mismatch: z.boolean().optional().default(false),
});
export type AssignIncomingBody = z.input<typeof assignIncomingBodySchema>;

export const assignIncomingResponseSchema = z.object({ success: z.literal(true), item_uid: z.uuid() });
export type AssignIncomingResponse = z.infer<typeof assignIncomingResponseSchema>;
