/** The storage module's public entry: what other modules, jobs and plugins may use of it. */
export { extensionOfMime, SUPPORTED_IMAGE_FORMATS, type SupportedFormat } from './file-types.js';
export { LocalDiskStorage } from './local-disk-storage.js';
export { S3Storage, S3_FILES_PREFIX, S3_PART_BYTES } from './s3-storage.js';
export { checkBucket, createS3Client, s3ClientConfig } from './s3-client.js';
export { EXPIRY_STEP_SECONDS, expiryFor } from './signed-url.js';
export { type Storage } from './storage.js';
