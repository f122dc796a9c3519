import fs from 'node:fs';
import fsp from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { CreateBucketCommand, S3Client } from '@aws-sdk/client-s3';
import S3rver from 's3rver';
import { s3ClientConfig } from '../src/modules/storage/index.js';
import type { S3Settings } from '../src/config.js';

/** s3rver's own account: it refuses other access keys. */
const ACCESS_KEY = 'S3RVER';

export interface TestS3 {
  settings: S3Settings;
  /** The variables that put an app in S3 mode against this server (credentials are the process's). */
  env: Record<string, string>;
  client: S3Client;
  /** Where s3rver keeps its buckets. */
  directory: string;
  close(): Promise<void>;
}

/** The part of a Koa context these handlers use. */
interface KoaContext {
  method: string;
  path: string;
  query: Record<string, unknown>;
  status: number;
  type: string;
  body: unknown;
  req: IncomingMessage;
  res: ServerResponse;
}
type Middleware = (ctx: KoaContext, next: () => Promise<void>) => Promise<void>;

const xml = (text: string) => `<?xml version="1.0" encoding="UTF-8"?>\n${text}`;
const escapeXml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

function noSuchUpload(ctx: KoaContext) {
  ctx.status = 404;
  ctx.type = 'application/xml';
  ctx.body = xml(
    '<Error><Code>NoSuchUpload</Code><Message>The specified upload does not exist.</Message></Error>',
  );
}

/**
 * s3rver 3.7 keeps multipart uploads (create, upload part, complete) but answers three of their
 * operations with "method not allowed": ListParts, AbortMultipartUpload and ListMultipartUploads,
 * all of which @tus/s3-store needs to resume and expire uploads. These handlers answer them from
 * the same folders s3rver writes parts to (`<bucket>/._S3rver_uploads/<uploadId>/<part>`), in the
 * S3 protocol's XML, before s3rver's router sees the request.
 */
function multipartOperations(root: string): Middleware {
  return async (ctx, next) => {
    const [, bucket = '', ...rest] = ctx.path.split('/');
    const key = decodeURIComponent(rest.join('/'));
    const uploadsDir = path.join(root, bucket, '._S3rver_uploads');
    const uploadId = typeof ctx.query.uploadId === 'string' ? ctx.query.uploadId : undefined;
    if (key && uploadId !== undefined && (ctx.method === 'GET' || ctx.method === 'DELETE')) {
      const dir = path.join(uploadsDir, path.basename(uploadId));
      if (!fs.existsSync(dir)) {
        return noSuchUpload(ctx);
      }
      if (ctx.method === 'DELETE') {
        await fsp.rm(dir, { recursive: true, force: true });
        ctx.status = 204;
        return;
      }
      // A part whose checksum file is missing was cut off while it was sent (its sender died):
      // S3 lists only parts that were received whole.
      const names = new Set(await fsp.readdir(dir));
      const numbers = [...names]
        .filter((name) => /^\d+$/.test(name) && names.has(`${name}.md5`))
        .map(Number)
        .sort((a, b) => a - b);
      const parts = await Promise.all(
        numbers.map(async (number) => {
          const stats = await fsp.stat(path.join(dir, String(number)));
          const md5 = await fsp.readFile(path.join(dir, `${number}.md5`), 'utf8');
          return `<Part><PartNumber>${number}</PartNumber><LastModified>${stats.mtime.toISOString()}</LastModified><ETag>"${md5}"</ETag><Size>${stats.size}</Size></Part>`;
        }),
      );
      ctx.type = 'application/xml';
      ctx.body = xml(
        `<ListPartsResult><Bucket>${escapeXml(bucket)}</Bucket><Key>${escapeXml(key)}</Key><UploadId>${escapeXml(uploadId)}</UploadId><MaxParts>10000</MaxParts><IsTruncated>false</IsTruncated>${parts.join('')}</ListPartsResult>`,
      );
      return;
    }
    if (!key && bucket && ctx.method === 'GET' && 'uploads' in ctx.query) {
      const ids = fs.existsSync(uploadsDir) ? await fsp.readdir(uploadsDir) : [];
      const uploads = await Promise.all(
        ids.map(async (id) => {
          const objectKey = await fsp.readFile(path.join(uploadsDir, id, 'key'), 'utf8');
          const stats = await fsp.stat(path.join(uploadsDir, id));
          return `<Upload><Key>${escapeXml(objectKey)}</Key><UploadId>${escapeXml(id)}</UploadId><Initiated>${stats.birthtime.toISOString()}</Initiated></Upload>`;
        }),
      );
      ctx.type = 'application/xml';
      ctx.body = xml(
        `<ListMultipartUploadsResult><Bucket>${escapeXml(bucket)}</Bucket><IsTruncated>false</IsTruncated>${uploads.join('')}</ListMultipartUploadsResult>`,
      );
      return;
    }
    await next();
  };
}

/**
 * A real S3-protocol server (s3rver) on a random loopback port, with the bucket made. Its files are
 * in a temporary folder removed on close, or in `options.directory`, kept (npm run cluster), where
 * the bucket may already be. The AWS SDK's default credential chain is pointed at s3rver's account.
 */
export async function startTestS3(
  bucket = 'radiology-test',
  options: { directory?: string } = {},
): Promise<TestS3> {
  process.env.AWS_ACCESS_KEY_ID = ACCESS_KEY;
  process.env.AWS_SECRET_ACCESS_KEY = ACCESS_KEY;
  const isKept = options.directory !== undefined;
  if (options.directory) {
    fs.mkdirSync(options.directory, { recursive: true });
  }
  const directory = options.directory ?? fs.mkdtempSync(path.join(os.tmpdir(), 'ra-s3-'));
  const server = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory });
  const { middleware } = server as unknown as { middleware: Middleware[] };
  // Just before s3rver's router, after its XML and path-style handling.
  middleware.splice(middleware.length - 1, 0, multipartOperations(directory));
  const address = await server.run();
  const settings: S3Settings = {
    endpoint: `http://127.0.0.1:${address.port}`,
    bucket,
    region: 'us-east-1',
    forcePathStyle: true,
  };
  const client = new S3Client(s3ClientConfig(settings));
  if (!(isKept && fs.existsSync(path.join(directory, bucket)))) {
    await client.send(new CreateBucketCommand({ Bucket: bucket }));
  }
  return {
    settings,
    env: {
      STORAGE: 's3',
      S3_ENDPOINT: settings.endpoint!,
      S3_BUCKET: bucket,
      S3_REGION: settings.region,
      S3_FORCE_PATH_STYLE: '1',
    },
    client,
    directory,
    close: async () => {
      client.destroy();
      await server.close();
      if (!isKept) {
        fs.rmSync(directory, { recursive: true, force: true });
      }
    },
  };
}
