import { HeadBucketCommand, S3Client, type S3ClientConfig } from '@aws-sdk/client-s3';
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

/**
 * Stops the start when the bucket cannot be used (missing, unreachable, refused credentials), with
 * a message that names it, instead of failing at the first upload.
 */
export async function checkBucket(client: S3Client, settings: S3Settings): Promise<void> {
  try {
    await client.send(new HeadBucketCommand({ Bucket: settings.bucket }));
  } catch (err) {
    const error = err as { name?: string; message?: string; $metadata?: { httpStatusCode?: number } };
    const status = error.$metadata?.httpStatusCode;
    const reason =
      status === 404
        ? 'it does not exist'
        : `${error.name ?? 'error'}${status ? ` (HTTP ${status})` : ''}: ${error.message ?? ''}`;
    throw new Error(
      `STORAGE=s3: the bucket "${settings.bucket}" at ${settings.endpoint ?? `AWS S3 (${settings.region})`} cannot be used: ${reason}`,
      { cause: err },
    );
  }
}
