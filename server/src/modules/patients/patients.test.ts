import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { createTestApp, type TestApp } from '../../../test/test-app.js';
import {
  bearer,
  createPatient,
  createPhysician,
  createRadiologist,
  signIn,
  uniqueEmail,
} from '../../../test/factories.js';
import { findLinkInOutbox, readOutbox } from '../../../test/outbox.js';
import { pngImage, uploadFile } from '../../../test/uploads.js';
import { notifications } from '../../db/schema/notifications.js';
import { findPhysicianOf, linkPatient } from './patients.repository.js';

let t: TestApp;
let physician: { id: string; token: string };
beforeAll(async () => {
  t = await createTestApp();
  const user = await createPhysician(t.database.db, { firstName: 'Gina', lastName: 'House' });
  physician = { id: user.id, token: (await signIn(t.app, user.email)).token };
});
afterAll(() => t.close());

/** What a physician knows of a factory patient (the factory's names and date of birth). */
const factoryDetails = { first_name: 'Test', last_name: 'Patient', dob: '1985-02-03' };

function addPatient(token: string | undefined, payload: Record<string, unknown>) {
  return t.app.inject({
    method: 'POST',
    url: '/api/auth/add-patient',
    headers: token ? bearer(token) : {},
    payload,
  });
}

describe('POST /api/auth/add-patient', () => {
  it('is for physicians only', async () => {
    expect((await addPatient(undefined, { email: 'a@b.co' })).statusCode).toBe(401);
    const patient = await createPatient(t.database.db);
    const radiologist = await createRadiologist(t.database.db);
    for (const user of [patient, radiologist]) {
      const response = await addPatient((await signIn(t.app, user.email)).token, { email: 'a@b.co' });
      expect(response.statusCode).toBe(403);
      expect(response.json()).toEqual({ error: 'You are not authorized to make this request.' });
    }
  });

  it.each([
    [{ email: 'nope' }, 'email', 'Email address must be valid'],
    [{ email: uniqueEmail('new') }, 'first_name', 'First name is required'],
    [{ email: uniqueEmail('new'), first_name: 'A' }, 'last_name', 'Last name is required'],
    [
      { email: uniqueEmail('new'), first_name: 'A', last_name: 'B' },
      'dob',
      'Date of birth must be a real date in the past',
    ],
    [
      { email: uniqueEmail('new'), first_name: 'A', last_name: 'B', dob: '2999-01-01' },
      'dob',
      'Date of birth must be a real date in the past',
    ],
  ])('refuses %o with 400', async (payload, path, msg) => {
    const response = await addPatient(physician.token, payload);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ errors: [{ msg, path }] });
  });

  it('links an existing patient and tells them', async () => {
    const patient = await createPatient(t.database.db);
    const response = await addPatient(physician.token, {
      email: ` ${patient.email.toUpperCase()} `,
      ...factoryDetails,
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ success: true, msg: 'Successfully added patient' });
    expect(await findPhysicianOf(t.database.db, patient.id)).toBe(physician.id);
    const sent = await t.database.db.select().from(notifications).where(eq(notifications.userId, patient.id));
    expect(sent.map((n) => [n.message, n.to])).toEqual([['You have been added as a patient.', '/dashboard']]);

    const again = await addPatient(physician.token, { email: patient.email, ...factoryDetails });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toEqual({ success: false, msg: 'This patient is already in your list.' });
  });

  it('refuses a patient of another physician and an email of a non-patient', async () => {
    const other = await createPhysician(t.database.db);
    const patient = await createPatient(t.database.db);
    await linkPatient(t.database.db, patient.id, other.id);
    const taken = await addPatient(physician.token, { email: patient.email, ...factoryDetails });
    expect(taken.statusCode).toBe(409);
    expect(taken.json().msg).toBe('This patient is already assigned to another physician.');
    const staff = await addPatient(physician.token, { email: other.email });
    expect(staff.statusCode).toBe(409);
    expect(staff.json().msg).toBe('This email does not belong to a patient.');
  });

  it('invites a new patient, who chooses a password through the emailed link and signs in', async () => {
    const email = uniqueEmail('invited');
    const response = await addPatient(physician.token, {
      email,
      first_name: 'Ivy',
      last_name: 'Vite',
      dob: '1988-08-08',
    });
    expect(response.statusCode).toBe(201);
    expect(response.json()).toEqual({ success: true, msg: 'Successfully added new patient' });
    await t.app.ctx.mailer.drain();
    const mail = readOutbox(t.dataDir).find((m) => m.to.includes(email))!;
    expect(mail.subject).toBe('Dr. Gina House invited you to Radiology Archive');
    const link = findLinkInOutbox(t.dataDir, email)!;
    expect(link).toMatch(/^http:\/\/localhost:3000\/reset-password\?token=[\w-]+&invite=1$/);

    // No usable password until the invitation is accepted.
    await expect(signIn(t.app, email, '')).rejects.toThrow();
    const token = new URL(link).searchParams.get('token');
    const confirm = await t.app.inject({
      method: 'POST',
      url: '/api/auth/reset-password/confirm',
      payload: { token, password: 'my own password' },
    });
    expect(confirm.statusCode).toBe(200);
    const session = await signIn(t.app, email, 'my own password');
    expect(session.auth.user).toMatchObject({ displayName: 'Ivy Vite', role: 'Patient' });
    const reused = await t.app.inject({
      method: 'POST',
      url: '/api/auth/reset-password/confirm',
      payload: { token, password: 'another password' },
    });
    expect(reused.statusCode).toBe(400);
  });
});

describe('GET /api/user/patients', () => {
  it('is for physicians and radiologists; a radiologist has none before any payment', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/api/user/patients' })).statusCode).toBe(401);
    const patient = await createPatient(t.database.db);
    const asPatient = await t.app.inject({
      method: 'GET',
      url: '/api/user/patients',
      headers: bearer((await signIn(t.app, patient.email)).token),
    });
    expect(asPatient.statusCode).toBe(403);
    const radiologist = await createRadiologist(t.database.db);
    const asRadiologist = await t.app.inject({
      method: 'GET',
      url: '/api/user/patients',
      headers: bearer((await signIn(t.app, radiologist.email)).token),
    });
    expect(asRadiologist.json()).toEqual({ patients: [], next_cursor: null });
  });

  it('lists only the physician’s patients by name, with their 12 newest images and the count', async () => {
    const doctor = await createPhysician(t.database.db);
    const token = (await signIn(t.app, doctor.email)).token;
    const zed = await createPatient(t.database.db, { firstName: 'Zed', lastName: 'Adams' });
    const amy = await createPatient(t.database.db, { firstName: 'Amy', lastName: 'Adams' });
    const bob = await createPatient(t.database.db, { firstName: 'Bob', lastName: 'Brown' });
    const stranger = await createPatient(t.database.db);
    for (const p of [zed, amy, bob]) {
      await linkPatient(t.database.db, p.id, doctor.id);
    }
    await linkPatient(t.database.db, stranger.id, physician.id);
    const file = await pngImage(40, 40);
    for (let i = 0; i < 13; i += 1) {
      const url = await uploadFile(t.app, token, file);
      const posted = await t.app.inject({
        method: 'POST',
        url: '/api/user/upload-image',
        headers: bearer(token),
        payload: { patient: amy.id, notes: `n${i}`, url },
      });
      expect(posted.statusCode).toBe(201);
    }

    const page1 = await t.app.inject({
      method: 'GET',
      url: '/api/user/patients?limit=2',
      headers: bearer(token),
    });
    expect(page1.statusCode).toBe(200);
    const body = page1.json();
    expect(body.patients.map((p: { first_name: string }) => p.first_name)).toEqual(['Amy', 'Zed']);
    expect(body.patients[0]).toMatchObject({
      uid: amy.id,
      email: amy.email,
      dob: '1985-02-03',
      profile_image_url: null,
      image_count: 13,
    });
    expect(body.patients[0].images).toHaveLength(12);
    expect(body.patients[0].images[0].authors[0].note).toBe('n12');
    expect(body.patients[1]).toMatchObject({ image_count: 0, images: [] });

    const page2 = await t.app.inject({
      method: 'GET',
      url: `/api/user/patients?limit=2&cursor=${encodeURIComponent(body.next_cursor)}`,
      headers: bearer(token),
    });
    expect(page2.json().patients.map((p: { first_name: string }) => p.first_name)).toEqual(['Bob']);
    expect(page2.json().next_cursor).toBeNull();
  });
});
