import crypto from 'node:crypto';
import sharp from 'sharp';
import type { Locker } from '@tus/server';
import { ERROR_BODIES, UPLOAD_LIMITS, type UploadPurpose } from '@ra/shared';
import type { AppContext } from '../../context.js';
import type { Actor } from '../../lib/actor.js';
import { SUPPORTED_IMAGE_FORMATS, type SupportedFormat } from '../storage/index.js';
import { ContractTusServer, TusRefusal, contractAnswerFor, refusal } from './tus-errors.js';
import {
  UPLOADS_PATH,
  fileIdFromTusRequest,
  rawRequestOf,
  uploadCaller,
  type TusRequest,
} from './tus-request.js';
import { inspectDicomUpload, isDicomPurpose } from './dicom-upload.js';
import { storeRefusalOf } from '../access/index.js';
import { isOverStorageQuota, isOverUploadQuota } from './upload-quota.js';
import * as repo from './uploads.repository.js';
import type { UploadFiles } from './upload-files.js';

export { UPLOADS_PATH, uploadCaller } from './tus-request.js';
export { UPLOAD_CLAIM_HOURS } from './upload-quota.js';
export const NOT_AN_IMAGE = 'The file is not a supported image.';
export const NOT_DICOM = 'The file is not a DICOM file.';
export const NOT_A_ZIP = 'The file is not a ZIP file.';
export const NOT_A_BUNDLE = 'The upload is not a bundle of DICOM files.';
const NOT_WHAT_PURPOSE_SAYS = { dicom: NOT_DICOM, 'dicom-zip': NOT_A_ZIP, 'dicom-bundle': NOT_A_BUNDLE };

/** The extensions of docs/api.md §11.1; the stores also offer creation-defer-length, which we refuse. */
const TUS_EXTENSIONS = ['creation', 'creation-with-upload', 'termination', 'expiration'];

function callerOf(req: TusRequest): Actor {
  const raw = rawRequestOf(req);
  const user = raw ? uploadCaller.get(raw) : undefined;
  if (!user) {
    throw new TusRefusal(401, JSON.stringify(ERROR_BODIES.unauthenticated));
  }
  return user;
}

/** Reads the real type and size of an image from its bytes; undefined when it is not a supported image. */
export async function inspectImage(file: string) {
  try {
    // Only the header is read; the pixel limit is checked by the caller, with a clear message.
    const meta = await sharp(file, { limitInputPixels: false }).metadata();
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

/** What the app does with finished uploads besides checking them. */
export interface UploadHooks {
  /**
   * A bundle of DICOM files has arrived whole: its files may be read ahead of their filing. Only
   * for uploads kept on this disk: a bundle in a bucket is read when it is filed.
   */
  onBundleFinished?: (upload: { id: string; file: string; size: number }) => void;
  /** Its owner has ended an upload: whatever was made of it goes too. */
  onUploadDeleted?: (id: string) => void;
}

/** What a finished upload's first bytes or header say, read from a local file. */
async function inspectFinished<T>(
  files: UploadFiles,
  id: string,
  inspect: (file: string) => Promise<T>,
): Promise<T> {
  const copy = await files.localCopyOf(id);
  try {
    return await inspect(copy.path);
  } finally {
    await copy.release();
  }
}

/** The tus 1.0 server behind `/api/uploads`: resumable, owner-only, size-limited, type-checked uploads. */
export function createTusServer(
  ctx: AppContext,
  files: UploadFiles,
  hooks: UploadHooks = {},
  /** Where requests lock their upload: tus's in-process locker unless every instance shares one (Redis). */
  locker?: Locker,
): ContractTusServer {
  const store = files.store;
  store.extensions = TUS_EXTENSIONS;
  const limits = ctx.config.uploads;
  const publicOrigin = new URL(ctx.config.publicUrl).origin;
  const server = new ContractTusServer({
    path: UPLOADS_PATH,
    datastore: store,
    ...(locker && { locker }),
    relativeLocation: true,
    respectForwardedHeaders: ctx.config.trustProxy !== 0,
    maxSize: UPLOAD_LIMITS.image,
    // The web app is served from PUBLIC_URL; no other site's scripts get CORS access.
    allowedOrigins: (origin) => origin === publicOrigin,
    // Random ids: an upload URL cannot be guessed, and only its owner may use it anyway.
    namingFunction: () => crypto.randomUUID(),
    getFileIdFromRequest: fileIdFromTusRequest,
    onResponseError: (_req, err) => contractAnswerFor(err, ctx.log),
    // The ownership check runs on the id tus itself resolved, so the two can never disagree.
    async onIncomingRequest(req, id) {
      const user = callerOf(req);
      if (req.method === 'POST') {
        return;
      }
      const upload = await repo.findUpload(ctx.db, id);
      if (!upload || upload.userId !== user.id) {
        throw new TusRefusal(404, JSON.stringify(ERROR_BODIES.notFound));
      }
      if (req.method === 'DELETE') {
        // A terminated upload no longer counts against its owner's quota; tus deletes the bytes next
        // (or, should that fail, the store's expiry sweep does).
        await repo.deleteUnclaimedUpload(ctx.db, id);
        hooks.onUploadDeleted?.(id);
      }
    },
    async onUploadCreate(req, upload) {
      const user = callerOf(req);
      const purpose = upload.metadata?.purpose ?? '';
      if (!Object.hasOwn(UPLOAD_LIMITS, purpose)) {
        throw refusal(400, 'Upload purpose must be image, profile, dicom, dicom-zip or dicom-bundle.');
      }
      // A profile picture is not a record; everything else goes into the archive (access policy).
      const storeRefusal = purpose === 'profile' ? undefined : storeRefusalOf(user);
      if (storeRefusal) {
        const body = storeRefusal === 'unverified' ? ERROR_BODIES.unverified : ERROR_BODIES.forbidden;
        throw new TusRefusal(403, JSON.stringify(body));
      }
      if (upload.size === undefined) {
        throw refusal(400, 'The upload size must be given.');
      }
      if (upload.size > UPLOAD_LIMITS[purpose as UploadPurpose]) {
        throw refusal(413, 'The file is too large.');
      }
      if (await isOverUploadQuota(ctx, user.id, upload.size)) {
        throw new TusRefusal(429, JSON.stringify(ERROR_BODIES.tooManyRequests));
      }
      if (purpose !== 'profile' && (await isOverStorageQuota(ctx, user.id, upload.size))) {
        throw new TusRefusal(413, JSON.stringify(ERROR_BODIES.storageFull));
      }
      await repo.insertUpload(ctx.db, {
        id: upload.id,
        userId: user.id,
        purpose: purpose as UploadPurpose,
        filename: (upload.metadata?.filename ?? '').slice(0, 255),
        size: upload.size,
      });
      return { metadata: upload.metadata ?? {} };
    },
    async onUploadFinish(_req, upload) {
      const purpose = upload.metadata?.purpose ?? '';
      if (isDicomPurpose(purpose)) {
        // Only the marker is checked here; the files are read when they are filed (upload-study).
        const file = await inspectDicomUpload((length) => files.headOf(upload.id, length), purpose);
        await repo.markUploadFinished(
          ctx.db,
          upload.id,
          file ?? { contentType: null, width: null, height: null },
        );
        if (!file) {
          await files.remove(upload.id);
          throw refusal(415, NOT_WHAT_PURPOSE_SAYS[purpose]);
        }
        const ownPath = files.directPath(upload.id);
        if (purpose === 'dicom-bundle' && ownPath) {
          hooks.onBundleFinished?.({ id: upload.id, file: ownPath, size: upload.offset });
        }
        return {};
      }
      const image = await inspectFinished(files, upload.id, inspectImage);
      // Profile pictures keep their own, lower limit, checked when they are claimed.
      const isTooLarge =
        image !== undefined &&
        upload.metadata?.purpose === 'image' &&
        image.width * image.height > limits.maxImagePixels;
      await repo.markUploadFinished(
        ctx.db,
        upload.id,
        image && !isTooLarge ? image : { contentType: null, width: null, height: null },
      );
      if (!image || isTooLarge) {
        // Not kept: a file that is not a supported image, or too large a one, is deleted at once.
        await files.remove(upload.id);
        throw isTooLarge
          ? refusal(413, `The image is larger than ${limits.maxImageMegapixels} megapixels.`)
          : refusal(415, NOT_AN_IMAGE);
      }
      return {};
    },
  });
  return server;
}
