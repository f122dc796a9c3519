/** The dicom module's public entry: what other modules, jobs and plugins may use of it. */
export { parseBulkDataPath } from './bulk-data.js';
export { DECODE_RETRY_AFTER_SECONDS, DecodeBusy, DecodeOverLimit, DecodePool } from './decode-pool.js';
export { readDicomInstance, type DicomInstance } from './dicom-instance.js';
export { DicomReadError, PREVIEW_MESSAGES, READ_LIMIT_MESSAGES } from './dicom-read-error.js';
export { TRANSFER_SYNTAX } from './dicom-structure.js';
export { readDate } from './dicom-values.js';
export { isDecodable, type ImageAttributes } from './frame-data-codecs.js';
export { FrameNotDecodable, FrameNotFound, FramesTooLarge } from './frame-data-errors.js';
export { DEFAULT_MAX_TOTAL_FRAME_BYTES } from './frame-data.js';
export { clipSummary, instanceBounds, refusalOf } from './instance-checks.js';
export { sopClassName } from './sop-classes.js';
export { extractZip, ZIP_LIMITS, ZipRefused } from './zip-extract.js';
