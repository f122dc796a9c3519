import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERROR_BODIES } from '@ra/shared';
import { eq } from 'drizzle-orm';
import { createTestApp, type TestApp } from '../../../test/test-app.js';
import {
  bearer,
  createPatient,
  createPhysician,
  createRadiologist,
  signIn,
} from '../../../test/factories.js';
import { createUpload, uploadImageFor } from '../../../test/uploads.js';
import { users } from '../../db/schema/users.js';
import { linkPatient } from '../patients/patients.repository.js';
import { permitted, requirePermitted } from './access.policy.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

function uploadFor(physicianToken: string, patientId: string): Promise<string> {
  return uploadImageFor(t.app, physicianToken, patientId);
}

function get(token: string, url: string) {
  return t.app.inject({ method: 'GET', url, headers: bearer(token) });
}

describe('an account whose email is not verified', () => {
  it('sees no patient data until the address is confirmed', async () => {
    const db = t.database.db;
    const physician = await createPhysician(db);
    const physicianToken = (await signIn(t.app, physician.email)).token;
    const patient = await createPatient(db, { emailVerified: false });
    await linkPatient(db, patient.id, physician.id);
    const imageUid = await uploadFor(physicianToken, patient.id);
    const radiologist = await createRadiologist(db);

    const token = (await signIn(t.app, patient.email)).token;
    const list = await get(token, `/api/user/${patient.id}/images`);
    expect(list.statusCode).toBe(200);
    expect(list.json()).toEqual({ images: [], next_cursor: null });
    const image = await get(token, `/api/image/${imageUid}`);
    expect(image.statusCode).toBe(404);
    expect(image.json()).toEqual({ error: 'Not found.' });
    const invoice = await t.app.inject({
      method: 'POST',
      url: `/api/payment/${radiologist.id}/invoice`,
      headers: bearer(token),
      payload: { image: imageUid },
    });
    expect(invoice.statusCode).toBe(404);
    expect((await get(token, '/api/payment/invoices')).json()).toEqual({ data: [], next_cursor: null });
    expect((await get(token, '/api/user/profile')).json().staff).toEqual([]);

    // The physician still sees their patient's image.
    expect((await get(physicianToken, `/api/image/${imageUid}`)).statusCode).toBe(200);

    await db.update(users).set({ emailVerifiedAt: new Date() }).where(eq(users.id, patient.id));
    // A new session loads the account as it is now (live sessions are cached for a few seconds).
    const verified = (await signIn(t.app, patient.email)).token;
    const after = await get(verified, `/api/user/${patient.id}/images`);
    expect(after.json().images.map((i: { uid: string }) => i.uid)).toEqual([imageUid]);
    expect((await get(verified, `/api/image/${imageUid}`)).statusCode).toBe(200);
    expect((await get(verified, '/api/user/profile')).json().staff).toEqual([
      expect.objectContaining({ uid: physician.id, role: 'PHYSICIAN' }),
    ]);
  });

  it('as a physician, lists no patients and reads none of their images', async () => {
    const db = t.database.db;
    const physician = await createPhysician(db, { emailVerified: false });
    const patient = await createPatient(db);
    await linkPatient(db, patient.id, physician.id);
    const token = (await signIn(t.app, physician.email)).token;
    expect((await get(token, '/api/user/patients')).json()).toEqual({ patients: [], next_cursor: null });
    expect((await get(token, `/api/user/${patient.id}/images`)).statusCode).toBe(404);
    // Nothing they send is stored: the upload itself is refused, asking them to confirm their address.
    const upload = await createUpload(t.app, token, { size: 1000, purpose: 'image' });
    expect(upload.statusCode).toBe(403);
    expect(upload.json()).toEqual(ERROR_BODIES.unverified);
  });
});

describe('the access policy', () => {
  it('answers for a batch of ids at once with the allowed subset', async () => {
    const db = t.database.db;
    const physician = await createPhysician(db);
    const physicianToken = (await signIn(t.app, physician.email)).token;
    const mine = await createPatient(db);
    const stranger = await createPatient(db);
    await linkPatient(db, mine.id, physician.id);
    const first = await uploadFor(physicianToken, mine.id);
    const second = await uploadFor(physicianToken, mine.id);
    const viewer = { id: physician.id, role: 'PHYSICIAN' as const, emailVerified: true };

    const images = await permitted(t.app.ctx, viewer, 'item:read', [
      first,
      second,
      'not-a-uuid',
      '00000000-0000-4000-8000-000000000000',
    ]);
    expect(images).toEqual(new Set([first, second]));
    const patients = await permitted(t.app.ctx, viewer, 'patient:read', [mine.id, stranger.id, physician.id]);
    expect(patients).toEqual(new Set([mine.id]));
    await expect(requirePermitted(t.app.ctx, viewer, 'patient:read', [mine.id, stranger.id])).rejects.toThrow(
      'NOT_FOUND',
    );
    await expect(requirePermitted(t.app.ctx, viewer, 'item:read', [])).rejects.toThrow('NOT_FOUND');
    const otherPatient = { id: stranger.id, role: 'PATIENT' as const, emailVerified: true };
    expect(await permitted(t.app.ctx, otherPatient, 'item:read', [first])).toEqual(new Set());
    expect(await permitted(t.app.ctx, otherPatient, 'patient:read', [stranger.id, mine.id])).toEqual(
      new Set([stranger.id]),
    );
  });
});
