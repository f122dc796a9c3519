import { S3Client, type S3ClientConfig } from '@aws-sdk/client-s3';
import type { S3Settings } from '../../config.js';

/**
 * The client settings of STORAGE=s3, shared by the file store and the tus upload store. Credentials
 * are the SDK's default chain (AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, a profile, an instance
 * role). Checksums are sent only where S3 requires them: MinIO, Ceph RGW and older S3-protocol
 * servers do not all read the newer streaming checksum trailers.
 */
export function s3ClientConfig(settings: S3Settings): S3ClientConfig {
  return {
    region: settings.region,
    ...(settings.endpoint ? { endpoint: settings.endpoint } : {}),
    forcePathStyle: settings.forcePathStyle,
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  };
}

export function createS3Client(settings: S3Settings): S3Client {
  return new S3Client(s3ClientConfig(settings));
}

/** Whether an SDK error says the object (or a range of it) is not there. */
export function isMissingObject(err: unknown): boolean {
  const error = err as { name?: string; $metadata?: { httpStatusCode?: number } };
  return error.name === 'NotFound' || error.name === 'NoSuchKey' || error.$metadata?.httpStatusCode === 404;
}
