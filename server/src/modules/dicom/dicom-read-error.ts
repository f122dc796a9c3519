import { STUDY_MESSAGES } from '@ra/shared';

/** Why a preview cannot be made of a file that was read: the caller files the instance without one. */
export const PREVIEW_MESSAGES = {
  tooLarge: 'The image is too large to preview.',
  notRenderable: 'This image cannot be previewed.',
} as const;

/** Why a file is not read at all: it would take more than the configured bounds (config.ts). */
export const READ_LIMIT_MESSAGES = {
  inflatesTooLarge: 'The file inflates to more than the archive reads.',
  tooManyElements: 'The file holds more attributes than the archive reads.',
  tooMuchMemory: 'Reading the file took more memory than the archive allows.',
} as const;

export type DicomReadReason =
  | typeof STUDY_MESSAGES.notDicom
  | typeof STUDY_MESSAGES.unreadable
  | (typeof PREVIEW_MESSAGES)[keyof typeof PREVIEW_MESSAGES]
  | (typeof READ_LIMIT_MESSAGES)[keyof typeof READ_LIMIT_MESSAGES];

/**
 * A file that is not DICOM, cannot be read, or cannot be previewed. `reason` is the sentence shown to
 * the user; `cause` keeps what the parser or codec said, for the log only.
 */
export class DicomReadError extends Error {
  constructor(
    readonly reason: DicomReadReason,
    options?: { cause?: unknown },
  ) {
    super(reason, options);
    this.name = 'DicomReadError';
  }
}
