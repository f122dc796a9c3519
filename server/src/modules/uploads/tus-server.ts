import crypto from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import path from 'node:path';
import { Server, type ServerOptions } from '@tus/server';
import { FileStore } from '@tus/file-store';
import sharp from 'sharp';
import { ERROR_BODIES, UPLOAD_LIMITS } from '@ra/shared';
import type { AppContext } from '../../context.js';
import type { AuthUser } from '../../plugins/auth.js';
import { SUPPORTED_IMAGE_FORMATS, type SupportedFormat } from '../storage/file-types.js';
import * as repo from './uploads.repository.js';

export const UPLOADS_PATH = '/api/uploads';
export const UPLOAD_CLAIM_HOURS = 24;
export const NOT_AN_IMAGE = 'The file is not a supported image.';

/** The signed-in user of each tus request, set by the Fastify route before it hands the request over. */
export const uploadCaller = new WeakMap<IncomingMessage, AuthUser>();

type TusRequest = Parameters<NonNullable<ServerOptions['onUploadCreate']>>[0];

function callerOf(req: TusRequest): AuthUser {
  const raw = (req as { runtime?: { node?: { req?: IncomingMessage } } }).runtime?.node?.req;
  const user = raw ? uploadCaller.get(raw) : undefined;
  if (!user) {
    throw new TusRefusal(401, JSON.stringify(ERROR_BODIES.unauthenticated));
  }
  return user;
}

/** What tus expects thrown from a hook: a status and the body to answer with. */
class TusRefusal extends Error {
  constructor(
    readonly status_code: number,
    readonly body: string,
  ) {
    super(body);
  }
}

function refusal(status: number, message: string) {
  return new TusRefusal(status, JSON.stringify({ errors: [{ msg: message, path: 'upload' }] }));
}

/** Reads the real type and size of an image from its bytes; undefined when it is not a supported image. */
export async function inspectImage(file: string) {
  try {
    const meta = await sharp(file).metadata();
    const format = meta.format as string;
    if (!(format in SUPPORTED_IMAGE_FORMATS) || !meta.width || !meta.height) {
      return undefined;
    }
    return {
      contentType: SUPPORTED_IMAGE_FORMATS[format as SupportedFormat].mime,
      width: meta.width,
      height: meta.height,
    };
  } catch {
    return undefined;
  }
}

/** The tus 1.0 server behind `/api/uploads`: resumable, owner-only, size-limited, type-checked uploads. */
export function createTusServer(ctx: AppContext, tusDir: string): { server: Server; store: FileStore } {
  const store = new FileStore({
    directory: tusDir,
    expirationPeriodInMilliseconds: UPLOAD_CLAIM_HOURS * 3600 * 1000,
  });
  const server = new Server({
    path: UPLOADS_PATH,
    datastore: store,
    relativeLocation: true,
    respectForwardedHeaders: ctx.config.trustProxy !== 0,
    maxSize: UPLOAD_LIMITS.image,
    // Random ids: an upload URL cannot be guessed, and only its owner may use it anyway.
    namingFunction: () => crypto.randomUUID(),
    async onUploadCreate(req, upload) {
      const user = callerOf(req);
      const purpose = upload.metadata?.purpose;
      if (purpose !== 'image' && purpose !== 'profile') {
        throw refusal(400, 'Upload purpose must be image or profile.');
      }
      if (purpose === 'image' && user.role === 'PATIENT') {
        throw new TusRefusal(403, JSON.stringify(ERROR_BODIES.forbidden));
      }
      if (upload.size === undefined) {
        throw refusal(400, 'The upload size must be given.');
      }
      if (upload.size > UPLOAD_LIMITS[purpose]) {
        throw refusal(413, 'The file is too large.');
      }
      await repo.insertUpload(ctx.db, {
        id: upload.id,
        userId: user.id,
        purpose,
        filename: (upload.metadata?.filename ?? '').slice(0, 255),
        size: upload.size,
      });
      return { metadata: upload.metadata ?? {} };
    },
    async onUploadFinish(_req, upload) {
      const image = await inspectImage(path.join(tusDir, upload.id));
      await repo.markUploadFinished(
        ctx.db,
        upload.id,
        image ?? { contentType: null, width: null, height: null },
      );
      if (!image) {
        // Not kept: a file that is not a supported image is deleted at once.
        await store.remove(upload.id);
        throw refusal(415, NOT_AN_IMAGE);
      }
      return {};
    },
  });
  return { server, store };
}
