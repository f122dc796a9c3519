import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import sharp from 'sharp';
import type { ProfileResponse } from '@ra/shared';
import { createTestApp, type TestApp } from '../../../test/test-app.js';
import {
  bearer,
  createPatient,
  createPhysician,
  createRadiologist,
  signIn,
} from '../../../test/factories.js';
import { createUpload, patchUpload, pngImage, uploadFile } from '../../../test/uploads.js';
import { auditLog } from '../../db/schema/audit.js';
import { invoices } from '../../db/schema/payments.js';
import { users } from '../../db/schema/users.js';
import { PROFILE_PICTURE_JOB, profilePictureJob } from './profile-picture.job.js';
import { pictureSweepJob } from './picture-sweep.job.js';
import { linkPatient } from '../patients/patients.repository.js';

let t: TestApp;
type Person = { id: string; token: string };

async function person(create: () => Promise<{ id: string; email: string }>): Promise<Person> {
  const user = await create();
  return { id: user.id, token: (await signIn(t.app, user.email)).token };
}

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

function getProfile(token?: string) {
  return t.app.inject({
    method: 'GET',
    url: '/api/user/profile',
    headers: token ? bearer(token) : {},
  });
}

function putProfile(token: string | undefined, payload: object) {
  return t.app.inject({
    method: 'PUT',
    url: '/api/user/profile',
    headers: token ? bearer(token) : {},
    payload,
  });
}

async function profileOf(token: string): Promise<ProfileResponse> {
  const response = await getProfile(token);
  expect(response.statusCode).toBe(200);
  return response.json<ProfileResponse>();
}

/** Waits for the background crop of the caller's picture and returns the finished profile. */
async function profileWithCrop(token: string): Promise<ProfileResponse> {
  for (let attempt = 0; attempt < 100; attempt += 1) {
    const body = await profileOf(token);
    if (!body.profile.profile_image_processing) {
      return body;
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error('the profile picture was never cropped');
}

/** 300×100: red, green and blue thirds, so a centre crop is all green. */
function threeBands(): Promise<Buffer> {
  const band = (colour: string) =>
    sharp({ create: { width: 100, height: 100, channels: 3, background: colour } })
      .png()
      .toBuffer();
  return Promise.all([band('#ff0000'), band('#00ff00'), band('#0000ff')]).then(([red, green, blue]) =>
    sharp({ create: { width: 300, height: 100, channels: 3, background: '#000000' } })
      .composite([
        { input: red, left: 0, top: 0 },
        { input: green, left: 100, top: 0 },
        { input: blue, left: 200, top: 0 },
      ])
      .png()
      .toBuffer(),
  );
}

const PUBLIC_PICTURE = /^\/api\/profile-pictures\/[0-9a-f-]{36}\.webp$/;

describe('GET /api/user/profile', () => {
  it('needs a valid session', async () => {
    expect((await getProfile()).statusCode).toBe(401);
    const bad = await getProfile('not-a-token');
    expect(bad.statusCode).toBe(401);
    expect(bad.json()).toEqual({ error: 'Your session has expired. Please login again.' });
  });

  it('gives a patient their own profile and their care team: the physician and the radiologists paid', async () => {
    const patientUser = await createPatient(t.database.db, { firstName: 'Cara', lastName: 'Team' });
    const patient = await person(async () => patientUser);
    const physician = await createPhysician(t.database.db, { firstName: 'Phil', lastName: 'Zed' });
    await linkPatient(t.database.db, patient.id, physician.id);
    const paid = await createRadiologist(t.database.db, { firstName: 'Paula', lastName: 'Paid' });
    const alsoPaid = await createRadiologist(t.database.db, { firstName: 'Abe', lastName: 'Alpha' });
    const unpaid = await createRadiologist(t.database.db, { firstName: 'Una', lastName: 'Unpaid' });
    const url = await uploadFile(t.app, (await signIn(t.app, physician.email)).token, await pngImage(20, 20));
    const image = await t.app.inject({
      method: 'POST',
      url: '/api/user/upload-image',
      headers: bearer((await signIn(t.app, physician.email)).token),
      payload: { patient: patient.id, url },
    });
    const imageId = image.json().uid as string;
    const invoice = (radiologistId: string, status: 'open' | 'paid' | 'void') => ({
      patientId: patient.id,
      radiologistId,
      itemId: imageId,
      amountCents: 15000,
      status,
      provider: 'sandbox' as const,
      url: '/pay/x',
    });
    await t.database.db
      .insert(invoices)
      .values([
        invoice(paid.id, 'paid'),
        invoice(alsoPaid.id, 'paid'),
        invoice(unpaid.id, 'open'),
        invoice(paid.id, 'void'),
      ]);

    const body = await profileOf(patient.token);
    expect(body.profile).toEqual({
      uid: patient.id,
      title: '',
      first_name: 'Cara',
      last_name: 'Team',
      email: patientUser.email,
      dob: '1985-02-03',
      profile_image_url: null,
      profile_image_processing: false,
      bio: '',
      expertise: '',
      years_of_exp: 0,
      allow_ratings: true,
      role: 'PATIENT',
    });
    expect(body.staff).toEqual([
      {
        uid: physician.id,
        role: 'PHYSICIAN',
        title: 'Dr.',
        first_name: 'Phil',
        last_name: 'Zed',
        profile_image_url: null,
      },
      {
        uid: alsoPaid.id,
        role: 'RADIOLOGIST',
        title: 'Dr.',
        first_name: 'Abe',
        last_name: 'Alpha',
        profile_image_url: null,
      },
      {
        uid: paid.id,
        role: 'RADIOLOGIST',
        title: 'Dr.',
        first_name: 'Paula',
        last_name: 'Paid',
        profile_image_url: null,
      },
    ]);
    expect(JSON.stringify(body)).not.toContain('password');

    const audit = await t.database.db.select().from(auditLog).where(eq(auditLog.patientId, patient.id));
    expect(audit).toContainEqual(
      expect.objectContaining({ actorId: patient.id, action: 'read', recordType: 'profile' }),
    );
  });

  it('gives staff their bio and rating preference, and no care team', async () => {
    const radiologist = await person(() => createRadiologist(t.database.db, { firstName: 'Rita' }));
    const body = await profileOf(radiologist.token);
    expect(body.staff).toEqual([]);
    expect(body.profile).toMatchObject({
      uid: radiologist.id,
      role: 'RADIOLOGIST',
      title: 'Dr.',
      first_name: 'Rita',
      bio: 'Reads images.',
      expertise: 'Diagnostic',
      years_of_exp: 10,
      allow_ratings: true,
    });
  });
});

describe('PUT /api/user/profile', () => {
  it('needs a valid session', async () => {
    expect((await putProfile(undefined, { bio: 'x' })).statusCode).toBe(401);
  });

  it('refuses a bio from a patient and a rating preference from anyone but a radiologist', async () => {
    const patient = await person(() => createPatient(t.database.db));
    const physician = await person(() => createPhysician(t.database.db));
    const bio = await putProfile(patient.token, { bio: 'I am a patient.' });
    expect(bio.statusCode).toBe(400);
    expect(bio.json()).toEqual({
      errors: [{ msg: 'Only physicians and radiologists have a bio.', path: 'bio' }],
    });
    for (const caller of [patient, physician]) {
      const ratings = await putProfile(caller.token, { enableRatingSystem: false });
      expect(ratings.statusCode).toBe(400);
      expect(ratings.json()).toEqual({
        errors: [{ msg: 'Only radiologists can change the rating preference.', path: 'enableRatingSystem' }],
      });
    }
    expect((await profileOf(patient.token)).profile).toMatchObject({ bio: '', allow_ratings: true });
  });

  it('checks each field’s type and length', async () => {
    const radiologist = await person(() => createRadiologist(t.database.db));
    const long = await putProfile(radiologist.token, { bio: 'x'.repeat(10_001) });
    expect(long.statusCode).toBe(400);
    expect(long.json().errors[0]).toEqual({ msg: 'Bio is too long.', path: 'bio' });
    const notBoolean = await putProfile(radiologist.token, { enableRatingSystem: 'no' });
    expect(notBoolean.statusCode).toBe(400);
    expect(notBoolean.json().errors[0].msg).toBe('The rating preference must be true or false.');
    const notText = await putProfile(radiologist.token, { bio: 42 });
    expect(notText.json().errors[0].msg).toBe('Bio must be text.');
    expect((await profileOf(radiologist.token)).profile.bio).toBe('Reads images.');
  });

  it('changes only the fields sent', async () => {
    const radiologist = await person(() => createRadiologist(t.database.db));
    const bio = await putProfile(radiologist.token, {
      bio: '  Neuro reads, fast.\nTwo lines.  ',
      role: 'PATIENT',
    });
    expect(bio.statusCode).toBe(200);
    expect(bio.json()).toEqual({ success: true });
    expect((await profileOf(radiologist.token)).profile).toMatchObject({
      bio: 'Neuro reads, fast.\nTwo lines.',
      allow_ratings: true,
      role: 'RADIOLOGIST',
      profile_image_url: null,
    });

    expect((await putProfile(radiologist.token, { enableRatingSystem: false })).statusCode).toBe(200);
    expect((await profileOf(radiologist.token)).profile).toMatchObject({
      bio: 'Neuro reads, fast.\nTwo lines.',
      allow_ratings: false,
    });

    expect((await putProfile(radiologist.token, {})).statusCode).toBe(200);
    expect((await putProfile(radiologist.token, { bio: '' })).statusCode).toBe(200);
    expect((await profileOf(radiologist.token)).profile).toMatchObject({ bio: '', allow_ratings: false });

    const physician = await person(() => createPhysician(t.database.db));
    expect((await putProfile(physician.token, { bio: 'Family medicine.' })).statusCode).toBe(200);
    expect((await profileOf(physician.token)).profile.bio).toBe('Family medicine.');
  });

  it('an opted-out radiologist cannot be rated, and opting in again allows it', async () => {
    const radiologist = await person(() => createRadiologist(t.database.db));
    const patient = await person(() => createPatient(t.database.db));
    await putProfile(radiologist.token, { enableRatingSystem: false });
    const rate = () =>
      t.app.inject({
        method: 'POST',
        url: '/api/user/rate',
        headers: bearer(patient.token),
        payload: { uid: radiologist.id, rating: 5 },
      });
    const refused = await rate();
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toEqual({ success: false, msg: 'This radiologist is not accepting ratings.' });
    const list = await t.app.inject({ method: 'GET', url: '/api/user/radiologists' });
    expect(
      list.json().radiologists.find((r: { uid: string }) => r.uid === radiologist.id).allow_ratings,
    ).toBe(false);

    await putProfile(radiologist.token, { enableRatingSystem: true });
    // Accepted again: what refuses now is the next rule (this patient had no review from them).
    expect((await rate()).json().msg).toBe('You can only rate a radiologist who has reviewed your images.');
  });
});

describe('profile pictures', () => {
  it('crops a radiologist’s picture to a public 100×100 WebP used by the radiologist lists', async () => {
    const radiologist = await person(() => createRadiologist(t.database.db, { lastName: 'Pictured' }));
    const url = await uploadFile(t.app, radiologist.token, await threeBands(), 'profile');
    const saved = await putProfile(radiologist.token, { profile_image_url: url, bio: 'With a face.' });
    expect(saved.statusCode).toBe(200);

    const { profile } = await profileWithCrop(radiologist.token);
    expect(profile.bio).toBe('With a face.');
    expect(profile.profile_image_url).toMatch(PUBLIC_PICTURE);
    const picture = await t.app.inject({ method: 'GET', url: profile.profile_image_url! });
    expect(picture.statusCode).toBe(200);
    expect(picture.headers['content-type']).toBe('image/webp');
    expect(picture.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    const { data, info } = await sharp(picture.rawPayload).raw().toBuffer({ resolveWithObject: true });
    expect(info).toMatchObject({ width: 100, height: 100 });
    // Centre crop: the corners and the middle are all from the green middle band.
    for (const [x, y] of [
      [2, 2],
      [97, 2],
      [50, 50],
      [2, 97],
      [97, 97],
    ] as const) {
      const offset = (y * info.width + x) * info.channels;
      expect([data[offset]! < 40, data[offset + 1]! > 200, data[offset + 2]! < 40]).toEqual([
        true,
        true,
        true,
      ]);
    }

    const list = (await t.app.inject({ method: 'GET', url: '/api/user/radiologists' })).json().radiologists;
    expect(list.find((r: { uid: string }) => r.uid === radiologist.id).profile_image_url).toBe(
      profile.profile_image_url,
    );
    const meet = (await t.app.inject({ method: 'GET', url: '/api/user/meet-our-radiologists' })).json();
    expect(JSON.stringify(meet)).toContain(profile.profile_image_url!);
  });

  it('shows the owner a new picture at once, and the public only once it is cropped', async () => {
    const radiologist = await person(() => createRadiologist(t.database.db));
    const url = await uploadFile(t.app, radiologist.token, await pngImage(50, 50), 'profile');
    await putProfile(radiologist.token, { profile_image_url: url });
    await profileWithCrop(radiologist.token);
    // Undo the crop, as if the job had not run yet.
    await t.database.db.update(users).set({ pictureCropKey: null }).where(eq(users.id, radiologist.id));
    const { profile } = await profileOf(radiologist.token);
    expect(profile.profile_image_processing).toBe(true);
    expect(profile.profile_image_url).toMatch(/^\/api\/files\/profiles\/.+\.png\?expires=\d+&sig=/);
    expect((await t.app.inject({ method: 'GET', url: profile.profile_image_url! })).statusCode).toBe(200);
    const list = (await t.app.inject({ method: 'GET', url: '/api/user/radiologists' })).json().radiologists;
    expect(list.find((r: { uid: string }) => r.uid === radiologist.id).profile_image_url).toBeNull();

    // The sweep finds the picture still without a crop and queues its job again.
    const queued: { name: string; data: object }[] = [];
    await pictureSweepJob(t.database.db, {
      send: (name, data) => Promise.resolve(void queued.push({ name, data })),
    }).handle({});
    const [row] = await t.database.db.select().from(users).where(eq(users.id, radiologist.id));
    const data = { userId: radiologist.id, pictureId: row!.pictureId! };
    expect(queued).toContainEqual({ name: PROFILE_PICTURE_JOB, data });

    await profilePictureJob(t.database.db, t.app.ctx.storage).handle(data);
    expect((await profileOf(radiologist.token)).profile.profile_image_url).toMatch(PUBLIC_PICTURE);
  });

  it('replaces and removes a picture, deleting the old files and retiring the old URL', async () => {
    const physician = await person(() => createPhysician(t.database.db));
    const first = await uploadFile(t.app, physician.token, await pngImage(120, 90), 'profile');
    await putProfile(physician.token, { profile_image_url: first });
    const before = (await profileWithCrop(physician.token)).profile.profile_image_url!;
    const [oldRow] = await t.database.db.select().from(users).where(eq(users.id, physician.id));

    const second = await uploadFile(t.app, physician.token, await pngImage(90, 120), 'profile');
    expect((await putProfile(physician.token, { profile_image_url: second })).statusCode).toBe(200);
    const after = (await profileWithCrop(physician.token)).profile.profile_image_url!;
    expect(after).toMatch(PUBLIC_PICTURE);
    expect(after).not.toBe(before);
    expect((await t.app.inject({ method: 'GET', url: before })).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'GET', url: after })).statusCode).toBe(200);
    expect(await t.app.ctx.storage.stat(oldRow!.pictureKey!)).toBeUndefined();
    expect(await t.app.ctx.storage.stat(oldRow!.pictureCropKey!)).toBeUndefined();
    // A late job for the replaced picture changes nothing.
    await profilePictureJob(t.database.db, t.app.ctx.storage).handle({
      userId: physician.id,
      pictureId: oldRow!.pictureId!,
    });
    expect((await profileOf(physician.token)).profile.profile_image_url).toBe(after);

    expect((await putProfile(physician.token, { profile_image_url: null })).statusCode).toBe(200);
    const removed = (await profileOf(physician.token)).profile;
    expect(removed).toMatchObject({ profile_image_url: null, profile_image_processing: false });
    expect((await t.app.inject({ method: 'GET', url: after })).statusCode).toBe(404);
  });

  it('accepts only a finished profile upload of the caller’s, once', async () => {
    const physician = await person(() => createPhysician(t.database.db));
    const other = await person(() => createPhysician(t.database.db));
    const notFound = {
      errors: [{ msg: 'The upload was not found or is not finished.', path: 'profile_image_url' }],
    };

    const othersUpload = await uploadFile(t.app, other.token, await pngImage(40, 40), 'profile');
    const stolen = await putProfile(physician.token, { profile_image_url: othersUpload });
    expect(stolen.statusCode).toBe(400);
    expect(stolen.json()).toEqual(notFound);

    const imageUpload = await uploadFile(t.app, physician.token, await pngImage(40, 40), 'image');
    expect((await putProfile(physician.token, { profile_image_url: imageUpload })).json()).toEqual(notFound);

    const unfinished = await createUpload(t.app, physician.token, { size: 5000, purpose: 'profile' });
    const partial = unfinished.headers.location as string;
    expect((await putProfile(physician.token, { profile_image_url: partial })).json()).toEqual(notFound);
    expect(
      (await putProfile(physician.token, { profile_image_url: 'https://evil.test/a.png' })).json(),
    ).toEqual(notFound);

    const own = await uploadFile(t.app, physician.token, await pngImage(40, 40), 'profile');
    expect((await putProfile(physician.token, { profile_image_url: own })).statusCode).toBe(200);
    expect((await putProfile(physician.token, { profile_image_url: own })).json()).toEqual(notFound);
    expect((await profileOf(physician.token)).profile.profile_image_url).not.toBeNull();
  });

  it('refuses a picture that is not an image, and one over 10 MiB', async () => {
    const patient = await person(() => createPatient(t.database.db));
    const fake = Buffer.from('GIF89a but really a script <script>alert(1)</script>'.repeat(10));
    const created = await createUpload(t.app, patient.token, { size: fake.length, purpose: 'profile' });
    const url = created.headers.location as string;
    const patched = await patchUpload(t.app, patient.token, url, 0, fake);
    expect(patched.statusCode).toBe(415);
    expect(patched.body).toContain('The file is not a supported image.');
    const saved = await putProfile(patient.token, { profile_image_url: url });
    expect(saved.statusCode).toBe(400);
    expect(saved.json()).toEqual({
      errors: [{ msg: 'The file is not a supported image.', path: 'profile_image_url' }],
    });
    const tooLarge = await createUpload(t.app, patient.token, {
      size: 10 * 1024 * 1024 + 1,
      purpose: 'profile',
    });
    expect(tooLarge.statusCode).toBe(413);
    expect((await profileOf(patient.token)).profile.profile_image_url).toBeNull();
  });

  it('refuses a picture of more than 50 megapixels and keeps none of its bytes', async () => {
    const physician = await person(() => createPhysician(t.database.db));
    const huge = await sharp({ create: { width: 7100, height: 7100, channels: 3, background: '#000000' } })
      .png({ compressionLevel: 9, palette: true })
      .toBuffer();
    const url = await uploadFile(t.app, physician.token, huge, 'profile');
    const refused = await putProfile(physician.token, { profile_image_url: url });
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toEqual({
      errors: [
        { msg: 'The picture is too large; it may have at most 50 megapixels.', path: 'profile_image_url' },
      ],
    });
    expect(fs.existsSync(path.join(t.app.ctx.tusDir, url.split('/').pop()!))).toBe(false);
    expect((await profileOf(physician.token)).profile.profile_image_url).toBeNull();
  });

  it('keeps a patient’s picture private: signed URLs for the patient and their physician only', async () => {
    const patient = await person(() => createPatient(t.database.db));
    const physician = await person(() => createPhysician(t.database.db));
    await linkPatient(t.database.db, patient.id, physician.id);
    const url = await uploadFile(t.app, patient.token, await pngImage(300, 300), 'profile');
    expect((await putProfile(patient.token, { profile_image_url: url })).statusCode).toBe(200);
    const own = (await profileWithCrop(patient.token)).profile.profile_image_url!;
    expect(own).toMatch(/^\/api\/files\/profiles\/[0-9a-f-]{36}-100\.webp\?expires=\d+&sig=/);
    expect((await t.app.inject({ method: 'GET', url: own })).statusCode).toBe(200);

    const [row] = await t.database.db.select().from(users).where(eq(users.id, patient.id));
    const guessed = await t.app.inject({
      method: 'GET',
      url: `/api/profile-pictures/${row!.pictureId}.webp`,
    });
    expect(guessed.statusCode).toBe(404);
    const unsigned = await t.app.inject({ method: 'GET', url: own.split('?')[0]! });
    expect(unsigned.statusCode).toBe(403);

    const list = await t.app.inject({
      method: 'GET',
      url: '/api/user/patients',
      headers: bearer(physician.token),
    });
    const card = list.json().patients.find((p: { uid: string }) => p.uid === patient.id);
    expect(card.profile_image_url).toMatch(/^\/api\/files\/profiles\/.+-100\.webp\?/);
    expect((await t.app.inject({ method: 'GET', url: card.profile_image_url })).statusCode).toBe(200);

    const audit = await t.database.db.select().from(auditLog).where(eq(auditLog.patientId, patient.id));
    expect(audit).toContainEqual(
      expect.objectContaining({ actorId: patient.id, action: 'update', recordType: 'profile' }),
    );
  });

  it('answers 404 for unknown picture URLs', async () => {
    for (const path of ['00000000-0000-4000-8000-000000000000.webp', '..%2F..%2Fetc%2Fpasswd', 'x.webp']) {
      expect((await t.app.inject({ method: 'GET', url: `/api/profile-pictures/${path}` })).statusCode).toBe(
        404,
      );
    }
  });
});
