import type { FastifyInstance } from 'fastify';
import sharp from 'sharp';

export function pngImage(width = 300, height = 200): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: '#6a8caf' } })
    .png()
    .toBuffer();
}

function metadataHeader(metadata: Record<string, string>): string {
  return Object.entries(metadata)
    .map(([key, value]) => `${key} ${Buffer.from(value).toString('base64')}`)
    .join(',');
}

/** Starts a tus upload and returns the response (Location holds the upload URL). */
export function createUpload(
  app: FastifyInstance,
  token: string,
  options: { size: number; purpose?: string; filename?: string; body?: Buffer },
) {
  return app.inject({
    method: 'POST',
    url: '/api/uploads',
    headers: {
      authorization: `Bearer ${token}`,
      'tus-resumable': '1.0.0',
      'upload-length': String(options.size),
      'upload-metadata': metadataHeader({
        filename: options.filename ?? 'scan.png',
        filetype: 'image/png',
        ...(options.purpose === undefined
          ? { purpose: 'image' }
          : options.purpose
            ? { purpose: options.purpose }
            : {}),
      }),
      ...(options.body ? { 'content-type': 'application/offset+octet-stream' } : {}),
    },
    ...(options.body ? { payload: options.body } : {}),
  });
}

export function patchUpload(app: FastifyInstance, token: string, url: string, offset: number, chunk: Buffer) {
  return app.inject({
    method: 'PATCH',
    url,
    headers: {
      authorization: `Bearer ${token}`,
      'tus-resumable': '1.0.0',
      'upload-offset': String(offset),
      'content-type': 'application/offset+octet-stream',
    },
    payload: chunk,
  });
}

/** Uploads a whole file in one PATCH and returns its URL (`/api/uploads/<id>`). */
export async function uploadFile(
  app: FastifyInstance,
  token: string,
  file: Buffer,
  purpose = 'image',
): Promise<string> {
  const created = await createUpload(app, token, { size: file.length, purpose });
  if (created.statusCode !== 201) {
    throw new Error(`upload creation failed: ${created.statusCode} ${created.body}`);
  }
  const url = created.headers.location as string;
  const patched = await patchUpload(app, token, url, 0, file);
  if (patched.statusCode !== 204) {
    throw new Error(`upload failed: ${patched.statusCode} ${patched.body}`);
  }
  return url;
}

/** A bodyless tus request (HEAD, DELETE, OPTIONS) with the tus version header. */
export function tusRequest(
  app: FastifyInstance,
  method: 'HEAD' | 'DELETE' | 'OPTIONS',
  url: string,
  token?: string,
  headers: Record<string, string> = {},
) {
  return app.inject({
    method,
    url,
    headers: {
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      'tus-resumable': '1.0.0',
      ...headers,
    },
  });
}

/** A physician (or paid radiologist) uploads a small PNG for a patient through tus and upload-image; returns the image uid. */
export async function uploadImageFor(
  app: FastifyInstance,
  token: string,
  patientId: string,
  notes = 'n',
): Promise<string> {
  const url = await uploadFile(app, token, await pngImage(40, 40));
  const posted = await app.inject({
    method: 'POST',
    url: '/api/user/upload-image',
    headers: { authorization: `Bearer ${token}` },
    payload: { patient: patientId, notes, url },
  });
  if (posted.statusCode !== 201) {
    throw new Error(`upload-image failed: ${posted.statusCode} ${posted.body}`);
  }
  return posted.json<{ uid: string }>().uid;
}
