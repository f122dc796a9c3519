import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import crypto from 'node:crypto';
import sharp from 'sharp';
import type { Image, ImagePage } from '@ra/shared';
import type { Api } from './lib/api.js';
import { load, type LoadRow } from './lib/load.js';
import { median, noisyJpeg } from './lib/measure.js';

const UPLOAD_MB = Number(process.env.BENCH_UPLOAD_MB ?? 200);
const THUMBNAIL_IMAGES = Number(process.env.BENCH_THUMBNAIL_IMAGES ?? 50);
const LARGE_ARCHIVE = Number(process.env.BENCH_ARCHIVE_IMAGES ?? 1000);

function seconds(start: bigint): number {
  return Number(process.hrtime.bigint() - start) / 1e9;
}

/** tus upload of a ~200 MB image over loopback against `cp` of the same file on the same disk. */
export async function uploadThroughput(api: Api, workDir: string) {
  const side = Math.floor(Math.sqrt((UPLOAD_MB * 1024 * 1024) / 3));
  const file = path.join(workDir, 'large.tif');
  await sharp(crypto.randomBytes(side * side * 3), { raw: { width: side, height: side, channels: 3 } })
    .tiff({ compression: 'none' })
    .toFile(file);
  const size = fs.statSync(file).size;

  let start = process.hrtime.bigint();
  execFileSync('cp', [file, path.join(workDir, 'copy.tif')]);
  const cpSeconds = seconds(start);

  start = process.hrtime.bigint();
  await api.upload(Readable.toWeb(fs.createReadStream(file)) as ReadableStream, size);
  const tusSeconds = seconds(start);
  const mb = size / (1024 * 1024);
  return { mb, cpMbps: mb / cpSeconds, tusMbps: mb / tusSeconds };
}

async function waitForThumbnail(api: Api, uid: string): Promise<void> {
  for (;;) {
    const { image } = await api.json<{ image: Image }>('GET', `/api/image/${uid}`);
    if (image.thumbnail_url) {
      return;
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** Seconds from upload-image's answer to a thumbnail being available, for 2048×2048 images. */
export async function thumbnailLatency(api: Api, patientUid: string) {
  const jpeg = await noisyJpeg(2048, 2048);
  const latencies: number[] = [];
  for (let i = 0; i < THUMBNAIL_IMAGES; i += 1) {
    const url = await api.upload(jpeg, jpeg.length);
    const { uid } = await api.json<{ uid: string }>('POST', '/api/user/upload-image', {
      patient: patientUid,
      notes: 'bench',
      url,
    });
    const start = process.hrtime.bigint();
    await waitForThumbnail(api, uid);
    latencies.push(seconds(start));
  }
  return { median: median(latencies), max: Math.max(...latencies), bytes: jpeg.length };
}

async function addPatient(api: Api, name: string): Promise<string> {
  const email = `bench-${name.toLowerCase()}-${crypto.randomUUID().slice(0, 6)}@example.test`;
  await api.json('POST', '/api/auth/add-patient', {
    email,
    first_name: 'Bench',
    last_name: name,
    dob: '1980-01-01',
  });
  const page = await api.json<{ patients: { uid: string; email: string }[] }>(
    'GET',
    '/api/user/patients?limit=200',
  );
  return page.patients.find((p) => p.email === email)!.uid;
}

async function fillArchive(api: Api, patientUid: string, count: number): Promise<void> {
  const png = await sharp({ create: { width: 64, height: 64, channels: 3, background: '#456' } })
    .png()
    .toBuffer();
  let next = 0;
  const worker = async () => {
    while (next < count) {
      next += 1;
      const url = await api.upload(png, png.length);
      await api.json('POST', '/api/user/upload-image', { patient: patientUid, notes: 'archive', url });
    }
  };
  await Promise.all(Array.from({ length: 8 }, worker));
  // Let the thumbnail jobs finish so they do not run during the measurement.
  for (;;) {
    const page = await api.json<ImagePage>('GET', `/api/user/${patientUid}/images?limit=200`);
    if (page.images.every((image) => image.thumbnail_url)) {
      return;
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}

/** The image list's first page for a patient with a large archive and with a small one. */
export async function imageListRows(api: Api): Promise<LoadRow[]> {
  const large = await addPatient(api, 'Large');
  const small = await addPatient(api, 'Small');
  await fillArchive(api, large, LARGE_ARCHIVE);
  await fillArchive(api, small, 10);
  const headers = { authorization: api.authorization };
  return [
    await load(`GET /api/user/{uid}/images (${LARGE_ARCHIVE} images)`, {
      url: `${api.base}/api/user/${large}/images`,
      headers,
    }),
    await load(`GET /api/user/{uid}/images?limit=10 (${LARGE_ARCHIVE} images)`, {
      url: `${api.base}/api/user/${large}/images?limit=10`,
      headers,
    }),
    await load('GET /api/user/{uid}/images (10 images)', {
      url: `${api.base}/api/user/${small}/images`,
      headers,
    }),
  ];
}

export function makeWorkDir(): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), 'ra-bench-files-'));
}
