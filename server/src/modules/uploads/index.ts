/** The uploads module's public entry: what other modules, jobs and plugins may use of it. */
export {
  dicomBundleBoundaryOf,
  hasDicomMarker,
  MAX_BUNDLE_FIRST_LINE,
  readHead,
  startsAsDicom,
  type DicomPurpose,
} from './dicom-upload.js';
export { createTusServer, UPLOAD_CLAIM_HOURS } from './tus-server.js';
export { RedisUploadLocker } from './redis-upload-locker.js';
export {
  claimDicomUploads,
  claimUpload,
  findDicomUploads,
  forgetUploadFiles,
  moveIntoStorage,
  remainingStorage,
  storageLeftAfter,
  UPLOAD_NOT_FOUND,
  uploadIdOf,
} from './uploads.service.js';
export { uploadCleanupJob } from './upload-cleanup.job.js';
export { DiskUploadFiles, S3UploadFiles, type LocalUploadCopy, type UploadFiles } from './upload-files.js';
