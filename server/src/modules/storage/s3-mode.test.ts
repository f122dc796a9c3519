import fs from 'node:fs';
import path from 'node:path';
import {
  GetObjectCommand,
  HeadObjectCommand,
  ListMultipartUploadsCommand,
  ListObjectsV2Command,
} from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, inArray } from 'drizzle-orm';
import sharp from 'sharp';
import { imageResponseSchema, uploadImageResponseSchema, uploadStudyResponseSchema } from '@ra/shared';
import { createTestApp, type TestApp } from '../../../test/test-app.js';
import { bearer, createPatient, createPhysician, signIn } from '../../../test/factories.js';
import { newUid, sampleCopy } from '../../../test/dicom-files.js';
import { createUpload, patchUpload, pngImage, uploadFile } from '../../../test/uploads.js';
import { unzip } from '../../../test/zip-reader.js';
import { buildZip } from '../../../test/zip-writer.js';
import { dicomBundle } from '../../../test/dicom-bundle.js';
import { startTestS3, type TestS3 } from '../../../test/s3-server.js';
import { archiveItems } from '../../db/schema/archive-items.js';
import { dicomInstances } from '../../db/schema/studies.js';
import { uploads } from '../../db/schema/uploads.js';
import { uploadCleanupJob } from '../uploads/index.js';
import { linkPatient } from '../patients/patients.repository.js';
import { S3_FILES_PREFIX } from './s3-storage.js';

/*
 * STORAGE=s3 end to end, against a real S3-protocol server (s3rver): tus uploads and stored files
 * live in the bucket, never under STORAGE_DIR; DICOM studies are filed, read back through WADO-RS
 * and downloaded; a raster image is served through the signed file route; and an upload started
 * through one instance is finished through a second one that shares the bucket and database.
 */

let s3: TestS3;
let t: TestApp;
let other: TestApp;
let physician: { id: string; token: string };
let patient: { id: string; token: string };

beforeAll(async () => {
  s3 = await startTestS3();
  t = await createTestApp(s3.env, { jobPollingSeconds: 0.5 });
  other = await createTestApp(s3.env, { besides: t, isWorkingJobs: false });
  const db = t.database.db;
  const doctor = await createPhysician(db);
  const jane = await createPatient(db, { firstName: 'Jane', lastName: 'Doe', dob: '1980-04-02' });
  await linkPatient(db, jane.id, doctor.id);
  physician = { id: doctor.id, token: (await signIn(t.app, doctor.email)).token };
  patient = { id: jane.id, token: (await signIn(t.app, jane.email)).token };
});
afterAll(async () => {
  await other?.close();
  await t?.close();
  await s3?.close();
});

async function objectBytes(key: string): Promise<Buffer> {
  const object = await s3.client.send(new GetObjectCommand({ Bucket: s3.settings.bucket, Key: key }));
  return Buffer.from(await object.Body!.transformToByteArray());
}

async function objectExists(key: string): Promise<boolean> {
  try {
    await s3.client.send(new HeadObjectCommand({ Bucket: s3.settings.bucket, Key: key }));
    return true;
  } catch {
    return false;
  }
}

/** Every regular file under a folder, recursively. */
function filesUnder(dir: string): string[] {
  if (!fs.existsSync(dir)) {
    return [];
  }
  return fs
    .readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile())
    .map((entry) => path.join(entry.parentPath, entry.name));
}

const idOf = (url: string) => url.split('/').pop()!;

describe('STORAGE=s3 through the HTTP API', () => {
  it('files a DICOM study uploaded with tus and reads it back through WADO-RS and the ZIP download', async () => {
    const studyUid = newUid();
    const seriesUid = newUid();
    const file = await sampleCopy('CT_small.dcm', {
      patientName: 'Doe^Jane',
      birthDate: '19800402',
      studyUid,
      seriesUid,
    });
    const url = await uploadFile(t.app, physician.token, file, 'dicom');
    // tus wrote the upload into the bucket, not onto this disk.
    expect((await objectBytes(idOf(url))).equals(file)).toBe(true);
    expect(fs.existsSync(path.join(t.app.ctx.tusDir, idOf(url)))).toBe(false);

    const filed = await t.app.inject({
      method: 'POST',
      url: '/api/user/upload-study',
      headers: bearer(physician.token),
      payload: { patient: patient.id, uploads: [url] },
    });
    expect(filed.statusCode, filed.body).toBe(201);
    const [item] = uploadStudyResponseSchema.parse(filed.json()).items;
    expect(item).toMatchObject({ study_instance_uid: studyUid, instances: 1 });

    // Stored in the bucket byte for byte; the upload's objects are gone.
    const [row] = await t.database.db
      .select()
      .from(dicomInstances)
      .where(eq(dicomInstances.itemId, item!.uid));
    expect((await objectBytes(`${S3_FILES_PREFIX}${row!.storageKey}`)).equals(file)).toBe(true);
    expect(await objectExists(idOf(url))).toBe(false);
    expect(await objectExists(`${idOf(url)}.info`)).toBe(false);
    // No copy was left behind on this disk.
    expect(filesUnder(path.join(t.config.storageDir, 'unpacked'))).toEqual([]);
    expect(filesUnder(t.app.ctx.tusDir)).toEqual([]);

    const metadata = await t.app.inject({
      method: 'GET',
      url: `/dicomweb/studies/${studyUid}/metadata`,
      headers: bearer(patient.token),
    });
    expect(metadata.statusCode).toBe(200);
    const [instance] = metadata.json<Record<string, { Value?: unknown[] }>[]>();
    expect(instance!['0020000D']!.Value).toEqual([studyUid]);
    const sopUid = instance!['00080018']!.Value![0] as string;

    const base = `/dicomweb/studies/${studyUid}/series/${seriesUid}/instances/${sopUid}`;
    const frame = await t.app.inject({
      method: 'GET',
      url: `${base}/frames/1`,
      headers: { ...bearer(patient.token), accept: 'multipart/related; type="application/octet-stream"' },
    });
    expect(frame.statusCode, frame.body).toBe(200);
    // CT_small: 128 × 128 pixels of 16 bits, uncompressed.
    const boundary = /boundary="?([^";]+)"?/.exec(frame.headers['content-type'] as string)![1]!;
    const body = frame.rawPayload;
    const partStart = body.indexOf('\r\n\r\n') + 4;
    const partEnd = body.indexOf(`\r\n--${boundary}--`);
    const pixels = body.subarray(partStart, partEnd);
    expect(pixels.length).toBe(128 * 128 * 2);
    // The frame's bytes are the file's last 32 KiB: the pixel data ends the sample.
    expect(pixels.equals(file.subarray(file.length - pixels.length))).toBe(true);

    const rendered = await t.app.inject({
      method: 'GET',
      url: `${base}/rendered`,
      headers: { ...bearer(patient.token), accept: 'image/png' },
    });
    expect(rendered.statusCode).toBe(200);
    expect(await sharp(rendered.rawPayload).metadata()).toMatchObject({
      format: 'png',
      width: 128,
      height: 128,
    });

    const zip = await t.app.inject({
      method: 'GET',
      url: `/api/image/${item!.uid}/download`,
      headers: bearer(patient.token),
    });
    expect(zip.statusCode, zip.body).toBe(200);
    const entries = await unzip(zip.rawPayload);
    const dicomEntries = [...entries].filter(([, bytes]) => bytes.equals(file));
    expect(dicomEntries).toHaveLength(1);
  });

  it('files a ZIP and a bundle from the bucket, through the instance that did not receive them', async () => {
    const studyUid = newUid();
    const jane = { patientName: 'Doe^Jane', birthDate: '19800402', studyUid };
    const zipped = await sampleCopy('CT_small.dcm', { ...jane, instanceNumber: 1 });
    const bundled = await sampleCopy('CT_small.dcm', { ...jane, instanceNumber: 2 });
    const zipUrl = await uploadFile(
      t.app,
      physician.token,
      buildZip([{ name: 'a/IM1', data: zipped, method: 'deflate' }]),
      'dicom-zip',
    );
    const bundleUrl = await uploadFile(
      t.app,
      physician.token,
      dicomBundle([{ path: 'IM2', bytes: bundled }]),
      'dicom-bundle',
    );
    const filed = await other.app.inject({
      method: 'POST',
      url: '/api/user/upload-study',
      headers: bearer(physician.token),
      payload: { patient: patient.id, uploads: [zipUrl, bundleUrl] },
    });
    expect(filed.statusCode, filed.body).toBe(201);
    const [item] = uploadStudyResponseSchema.parse(filed.json()).items;
    expect(item).toMatchObject({ study_instance_uid: studyUid, instances: 2, skipped: [] });
    const rows = await t.database.db
      .select()
      .from(dicomInstances)
      .where(eq(dicomInstances.itemId, item!.uid));
    const stored = await Promise.all(rows.map((row) => objectBytes(`${S3_FILES_PREFIX}${row.storageKey}`)));
    expect(stored.some((bytes) => bytes.equals(zipped))).toBe(true);
    expect(stored.some((bytes) => bytes.equals(bundled))).toBe(true);
    for (const url of [zipUrl, bundleUrl]) {
      expect(await objectExists(idOf(url))).toBe(false);
    }
    expect(filesUnder(path.join(other.config.storageDir, 'unpacked'))).toEqual([]);
  });

  it('stores a raster image in the bucket and serves it through the signed file route', async () => {
    const png = await pngImage(120, 80);
    const url = await uploadFile(t.app, physician.token, png);
    const posted = await t.app.inject({
      method: 'POST',
      url: '/api/user/upload-image',
      headers: bearer(physician.token),
      payload: { patient: patient.id, notes: 'Chest', url },
    });
    expect(posted.statusCode, posted.body).toBe(201);
    const { uid } = uploadImageResponseSchema.parse(posted.json());
    const [row] = await t.database.db.select().from(archiveItems).where(eq(archiveItems.id, uid));
    const stored = await objectBytes(`${S3_FILES_PREFIX}${row!.storageKey}`);
    expect(await objectExists(idOf(url))).toBe(false);
    expect(fs.existsSync(path.join(t.config.storageDir, row!.storageKey))).toBe(false);

    const image = await t.app.inject({
      method: 'GET',
      url: `/api/image/${uid}`,
      headers: bearer(patient.token),
    });
    const { image: shown } = imageResponseSchema.parse(image.json());
    expect(shown.url.startsWith('/api/files/')).toBe(true);
    const served = await t.app.inject({ method: 'GET', url: shown.url });
    expect(served.statusCode).toBe(200);
    expect(served.rawPayload.equals(stored)).toBe(true);
    expect(await sharp(served.rawPayload).metadata()).toMatchObject({ width: 120, height: 80 });
    const ranged = await t.app.inject({ method: 'GET', url: shown.url, headers: { range: 'bytes=0-9' } });
    expect(ranged.statusCode).toBe(206);
    expect(ranged.rawPayload.equals(stored.subarray(0, 10))).toBe(true);
    // The same file through the other instance: the bucket is shared.
    const throughOther = await other.app.inject({ method: 'GET', url: shown.url });
    expect(throughOther.rawPayload.equals(stored)).toBe(true);
  });

  it('resumes an upload through a second instance that shares the bucket and database', async () => {
    const png = await pngImage(400, 300);
    const created = await createUpload(t.app, physician.token, { size: png.length });
    expect(created.statusCode).toBe(201);
    const url = created.headers.location as string;
    const half = Math.floor(png.length / 2);
    const first = await patchUpload(t.app, physician.token, url, 0, png.subarray(0, half));
    expect(first.statusCode).toBe(204);
    expect(first.headers['upload-offset']).toBe(String(half));

    // The other instance knows where the upload stands, and takes the rest.
    const head = await other.app.inject({
      method: 'HEAD',
      url,
      headers: { ...bearer(physician.token), 'tus-resumable': '1.0.0' },
    });
    expect(head.statusCode).toBe(200);
    expect(head.headers['upload-offset']).toBe(String(half));
    const wrongOffset = await patchUpload(other.app, physician.token, url, 0, png.subarray(half));
    expect(wrongOffset.statusCode).toBe(409);
    const rest = await patchUpload(other.app, physician.token, url, half, png.subarray(half));
    expect(rest.statusCode, rest.body).toBe(204);
    expect(rest.headers['upload-offset']).toBe(String(png.length));
    expect((await objectBytes(idOf(url))).equals(png)).toBe(true);

    // Filed through the first instance, which never saw the second half.
    const posted = await t.app.inject({
      method: 'POST',
      url: '/api/user/upload-image',
      headers: bearer(physician.token),
      payload: { patient: patient.id, notes: 'Resumed', url },
    });
    expect(posted.statusCode, posted.body).toBe(201);
    const { uid } = uploadImageResponseSchema.parse(posted.json());
    const [row] = await t.database.db.select().from(archiveItems).where(eq(archiveItems.id, uid));
    const stored = await objectBytes(`${S3_FILES_PREFIX}${row!.storageKey}`);
    expect(await sharp(stored).metadata()).toMatchObject({ width: 400, height: 300 });
  });

  it('refuses a file that is not what its upload said, and removes it from the bucket', async () => {
    const notDicom = Buffer.alloc(300, 7);
    const created = await createUpload(t.app, physician.token, { size: notDicom.length, purpose: 'dicom' });
    expect(created.statusCode).toBe(201);
    const url = created.headers.location as string;
    const id = idOf(url);
    expect(await objectExists(`${id}.info`)).toBe(true);
    const patched = await patchUpload(t.app, physician.token, url, 0, notDicom);
    expect(patched.statusCode).toBe(415);
    expect(await objectExists(id)).toBe(false);
    expect(await objectExists(`${id}.info`)).toBe(false);
  });

  it('the cleanup job removes an unclaimed upload, finished or not, from the bucket', async () => {
    const png = await pngImage(60, 60);
    const finished = idOf(await uploadFile(t.app, physician.token, png));
    const created = await createUpload(t.app, physician.token, { size: png.length });
    const unfinished = idOf(created.headers.location as string);
    const half = await patchUpload(
      t.app,
      physician.token,
      created.headers.location as string,
      0,
      png.subarray(0, 100),
    );
    expect(half.statusCode).toBe(204);
    // A half-sent upload keeps its bytes as `<id>.part` beside an open multipart upload.
    expect(await objectExists(`${unfinished}.part`)).toBe(true);
    expect(await objectExists(finished)).toBe(true);
    const dayAgo = new Date(Date.now() - 25 * 3600 * 1000);
    await t.database.db
      .update(uploads)
      .set({ createdAt: dayAgo })
      .where(inArray(uploads.id, [finished, unfinished]));

    await uploadCleanupJob(t.database.db, t.app.ctx.uploadFiles).handle({});

    for (const key of [finished, `${finished}.info`, `${unfinished}.info`, `${unfinished}.part`]) {
      expect(await objectExists(key), key).toBe(false);
    }
    const rows = await t.database.db
      .select()
      .from(uploads)
      .where(inArray(uploads.id, [finished, unfinished]));
    expect(rows).toEqual([]);
    // The multipart upload itself is aborted, not left to cost storage.
    const open = await s3.client.send(new ListMultipartUploadsCommand({ Bucket: s3.settings.bucket }));
    expect((open.Uploads ?? []).map((upload) => upload.Key)).not.toContain(unfinished);
  });

  it('keeps nothing but working folders on this disk', async () => {
    const keys = await s3.client.send(new ListObjectsV2Command({ Bucket: s3.settings.bucket }));
    expect((keys.Contents ?? []).some((object) => object.Key!.startsWith(S3_FILES_PREFIX))).toBe(true);
    const local = filesUnder(t.config.storageDir).filter(
      (file) => !file.includes(`${path.sep}unpacked${path.sep}`),
    );
    expect(local).toEqual([]);
  });
});
