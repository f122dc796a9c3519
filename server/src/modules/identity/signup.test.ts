import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/test-app.js';
import {
  createHospital,
  createPatient,
  createRosterEntry,
  signIn,
  uniqueEmail,
} from '../../../test/factories.js';
import { findUserByEmail } from './identity.repository.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

function signup(payload: Record<string, unknown>) {
  return t.app.inject({ method: 'POST', url: '/api/auth/signup', payload });
}

const patient = () => ({
  role: 'PATIENT',
  title: 'Ms.',
  first_name: 'Paula',
  last_name: 'Patient',
  dob: '1990-03-04',
  email: uniqueEmail('signup'),
  password: 'long enough',
});

describe('POST /api/auth/signup', () => {
  it.each([
    [{ email: 'not-an-email' }, 'email', 'Email address must be valid'],
    [{ email: undefined }, 'email', 'Email address must be valid'],
    [{ password: 'short' }, 'password', 'Password must be at least 8 characters long'],
    [{ first_name: '  ' }, 'first_name', 'First name is required'],
    [{ last_name: undefined }, 'last_name', 'Last name is required'],
    [{ first_name: 'x'.repeat(101) }, 'first_name', 'First name is too long.'],
    [{ dob: '2990-01-01' }, 'dob', 'Date of birth must be a real date in the past'],
    [{ dob: '1990-02-30' }, 'dob', 'Date of birth must be a real date in the past'],
    [{ dob: '04/03/1990' }, 'dob', 'Date of birth must be a real date in the past'],
    [{ title: 'Sir' }, 'title', 'Title must be Mr., Mrs., Ms. or Dr.'],
    [{ role: 'RADIOLOGIST' }, 'role', 'Role must be Patient or Physician'],
    [{ role: 'admin' }, 'role', 'Role must be Patient or Physician'],
    [{ role: 'PHYSICIAN', hospital: undefined }, 'hospital', 'Hospital is required for physicians'],
  ])('refuses %o with 400 "%s: %s"', async (change, path, msg) => {
    const response = await signup({ ...patient(), ...change });
    expect(response.statusCode).toBe(400);
    expect(response.json().errors[0]).toEqual({ msg, path });
  });

  it('creates a patient, trimming and lower-casing the email, and lets them sign in', async () => {
    const email = uniqueEmail('Mixed');
    const response = await signup({ ...patient(), email: `  ${email.toUpperCase()} `, extra: 'ignored' });
    expect(response.statusCode).toBe(201);
    expect(response.json()).toEqual({ msg: 'Successfully created new user' });
    const user = await findUserByEmail(t.database.db, email.toLowerCase());
    expect(user).toMatchObject({ role: 'PATIENT', title: 'Ms.', firstName: 'Paula', hospitalId: null });
    expect(user?.passwordHash).toMatch(/^\$argon2id\$/);
    const session = await signIn(t.app, email.toLowerCase(), 'long enough');
    expect(session.auth.user).toMatchObject({
      email: email.toLowerCase(),
      displayName: 'Ms. Paula Patient',
      role: 'Patient',
    });
  });

  it('accepts the role in any case', async () => {
    const response = await signup({ ...patient(), role: 'patient' });
    expect(response.statusCode).toBe(201);
  });

  it('refuses an email already in use with 409', async () => {
    const existing = await createPatient(t.database.db);
    const response = await signup({ ...patient(), email: existing.email });
    expect(response.statusCode).toBe(409);
    expect(response.json()).toEqual({ success: false, msg: 'This email is already in use.' });
  });

  describe('physicians', () => {
    it('claims a matching roster entry (names case-insensitive) and becomes Dr.', async () => {
      const hospital = await createHospital(t.database.db);
      const entry = await createRosterEntry(t.database.db, hospital.id, {
        firstName: 'Mara',
        lastName: 'Quinn',
        dob: '1979-09-09',
      });
      const email = uniqueEmail('doc');
      const response = await signup({
        ...patient(),
        role: 'PHYSICIAN',
        hospital: hospital.id,
        title: 'Mr.',
        first_name: 'mara',
        last_name: 'QUINN',
        dob: '1979-09-09',
        email,
      });
      expect(response.statusCode).toBe(201);
      expect(response.json()).toEqual({ msg: 'Successfully created physician account' });
      const user = await findUserByEmail(t.database.db, email);
      expect(user).toMatchObject({ role: 'PHYSICIAN', title: 'Dr.', hospitalId: hospital.id });
      const claimed = await t.database.db.query.rosterPhysicians.findFirst({
        where: (r, { eq }) => eq(r.id, entry.id),
      });
      expect(claimed?.claimedBy).toBe(user?.id);

      // The entry is claimed now: the same person cannot sign up twice under another email.
      const again = await signup({
        ...patient(),
        role: 'PHYSICIAN',
        hospital: hospital.id,
        first_name: 'Mara',
        last_name: 'Quinn',
        dob: '1979-09-09',
      });
      expect(again.statusCode).toBe(409);
      expect(again.json()).toEqual({ success: false, msg: 'Physician does not exist in hospital' });
    });

    it.each([
      ['not on the roster', { first_name: 'Nobody' }],
      ['on the roster of another hospital', { hospital: 'other' }],
      ['with a malformed hospital id', { hospital: 'not-a-uuid' }],
      ['with another date of birth', { dob: '1979-09-10' }],
    ])('refuses a physician %s', async (_label, change) => {
      const hospital = await createHospital(t.database.db);
      const other = await createHospital(t.database.db);
      await createRosterEntry(t.database.db, hospital.id, {
        firstName: 'Ivo',
        lastName: 'Stone',
        dob: '1979-09-09',
      });
      const body = {
        ...patient(),
        role: 'PHYSICIAN',
        hospital: hospital.id,
        first_name: 'Ivo',
        last_name: 'Stone',
        dob: '1979-09-09',
        ...change,
      };
      if (body.hospital === 'other') {
        body.hospital = other.id;
      }
      const response = await signup(body);
      expect(response.statusCode).toBe(409);
      expect(response.json()).toEqual({ success: false, msg: 'Physician does not exist in hospital' });
      expect(await findUserByEmail(t.database.db, body.email)).toBeUndefined();
    });
  });
});
