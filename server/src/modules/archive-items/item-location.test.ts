import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/test-app.js';
import { bearer, createPatient, createPhysician, signIn } from '../../../test/factories.js';
import { uploadFile } from '../../../test/uploads.js';
import { linkPatient } from '../patients/patients.repository.js';
import { eq } from 'drizzle-orm';
import { archiveItems } from '../../db/schema/archive-items.js';

let t: TestApp;
let token: string;
let patientId: string;
beforeAll(async () => {
  t = await createTestApp();
  const physician = await createPhysician(t.database.db);
  const patient = await createPatient(t.database.db);
  await linkPatient(t.database.db, patient.id, physician.id);
  token = (await signIn(t.app, physician.email)).token;
  patientId = patient.id;
});
afterAll(() => t.close());

const PRIVATE_EXIF = {
  IFD0: { Copyright: 'Dr Secret' },
  IFD3: {
    GPSLatitudeRef: 'N',
    GPSLatitude: '52/1 31/1 0/1',
    GPSLongitudeRef: 'E',
    GPSLongitude: '13/1 24/1 0/1',
  },
};

/** A 300×200 photo tagged "rotate 90° clockwise to display" (EXIF orientation 6), with a GPS position. */
function taggedPhoto(format: 'jpeg' | 'png' | 'webp') {
  return sharp({ create: { width: 300, height: 200, channels: 3, background: '#6a8caf' } })
    .withExif(PRIVATE_EXIF)
    .withMetadata({ orientation: 6 })
    .toFormat(format)
    .toBuffer();
}

/** Whether EXIF data points to a GPS IFD (tag 0x8825, in either byte order). */
function hasGpsIfd(exif: Buffer | undefined): boolean {
  return !!exif && (exif.includes(Buffer.from([0x88, 0x25])) || exif.includes(Buffer.from([0x25, 0x88])));
}

async function storeImage(file: Buffer) {
  const url = await uploadFile(t.app, token, file);
  const response = await t.app.inject({
    method: 'POST',
    url: '/api/user/upload-image',
    headers: bearer(token),
    payload: { patient: patientId, notes: 'Fine.', url },
  });
  expect(response.statusCode).toBe(201);
  const [row] = await t.database.db
    .select()
    .from(archiveItems)
    .where(eq(archiveItems.id, response.json().uid as string));
  if (!row) {
    throw new Error('the image was not stored');
  }
  const stream = await t.app.ctx.storage.read(row.storageKey);
  const chunks: Buffer[] = [];
  for await (const chunk of stream) {
    chunks.push(chunk as Buffer);
  }
  return { row, stored: Buffer.concat(chunks) };
}

describe('location metadata at ingest', () => {
  it('removes GPS and other EXIF from a JPEG losslessly, keeping its orientation', async () => {
    const photo = await taggedPhoto('jpeg');
    expect(hasGpsIfd((await sharp(photo).metadata()).exif)).toBe(true);
    const { row, stored } = await storeImage(photo);

    const meta = await sharp(stored).metadata();
    expect(hasGpsIfd(meta.exif)).toBe(false);
    expect(stored.includes('Dr Secret')).toBe(false);
    expect(meta.orientation).toBe(6);
    expect([meta.width, meta.height]).toEqual([300, 200]);
    expect(row).toMatchObject({ width: 300, height: 200, size: stored.length });
    // It still decodes, and its compressed image data is the original's, byte for byte.
    expect((await sharp(stored).raw().toBuffer()).length).toBe(300 * 200 * 3);
    const scan = (file: Buffer) => file.subarray(file.indexOf(Buffer.from([0xff, 0xda])));
    expect(scan(stored).equals(scan(photo))).toBe(true);
  });

  for (const format of ['png', 'webp'] as const) {
    it(`removes GPS from a ${format.toUpperCase()} and bakes its orientation into the pixels`, async () => {
      const { row, stored } = await storeImage(await taggedPhoto(format));
      const meta = await sharp(stored).metadata();
      expect(meta.exif).toBeUndefined();
      expect(stored.includes('Dr Secret')).toBe(false);
      expect(meta.orientation ?? 1).toBe(1);
      expect([meta.width, meta.height]).toEqual([200, 300]);
      expect(row).toMatchObject({ width: 200, height: 300, size: stored.length });
    });
  }

  it('stores a photo without metadata unchanged', async () => {
    const plain = await sharp({ create: { width: 40, height: 30, channels: 3, background: '#123456' } })
      .jpeg()
      .toBuffer();
    const { stored } = await storeImage(plain);
    expect(stored.equals(plain)).toBe(true);
  });
});
