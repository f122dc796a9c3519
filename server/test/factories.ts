import crypto from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { AuthResponse } from '@ra/shared';
import type { Db } from '../src/db/client.js';
import * as hospitalsRepo from '../src/modules/hospitals/hospitals.repository.js';
import * as identityRepo from '../src/modules/identity/identity.repository.js';
import { hashPassword } from '../src/modules/identity/password-hash.js';
import { createRadiologist as createRadiologistAccount } from '../src/modules/users/radiologist-accounts.service.js';

export const TEST_PASSWORD = 'correct horse battery';
let passwordHash: Promise<string> | undefined;

export function uniqueEmail(prefix = 'user'): string {
  return `${prefix}-${crypto.randomUUID().slice(0, 8)}@example.test`;
}

export async function createHospital(db: Db, name = `Hospital ${crypto.randomUUID().slice(0, 8)}`) {
  return hospitalsRepo.upsertHospital(db, name);
}

export async function createRosterEntry(
  db: Db,
  hospitalId: string,
  person: { firstName?: string; lastName?: string; dob?: string } = {},
) {
  return hospitalsRepo.insertRosterPhysician(db, {
    hospitalId,
    firstName: person.firstName ?? 'Rosa',
    lastName: person.lastName ?? `Roster${crypto.randomUUID().slice(0, 6)}`,
    dob: person.dob ?? '1980-01-15',
  });
}

async function insertAccount(
  db: Db,
  role: 'PATIENT' | 'PHYSICIAN',
  overrides: {
    email?: string;
    firstName?: string;
    lastName?: string;
    title?: string;
    dob?: string;
    /** False for an account whose owner has not yet opened the confirmation link. */
    emailVerified?: boolean;
  } = {},
) {
  passwordHash ??= hashPassword(TEST_PASSWORD);
  const user = await identityRepo.insertUser(db, {
    email: overrides.email ?? uniqueEmail(role.toLowerCase()),
    passwordHash: await passwordHash,
    role,
    title: overrides.title ?? (role === 'PHYSICIAN' ? 'Dr.' : ''),
    firstName: overrides.firstName ?? 'Test',
    lastName: overrides.lastName ?? role.charAt(0) + role.slice(1).toLowerCase(),
    dob: overrides.dob ?? '1985-02-03',
    // Factory accounts stand for people who have confirmed their address unless told otherwise.
    emailVerifiedAt: overrides.emailVerified === false ? null : new Date(),
  });
  return user!;
}

export function createPatient(db: Db, overrides: Parameters<typeof insertAccount>[2] = {}) {
  return insertAccount(db, 'PATIENT', overrides);
}

export function createPhysician(db: Db, overrides: Parameters<typeof insertAccount>[2] = {}) {
  return insertAccount(db, 'PHYSICIAN', overrides);
}

export function createRadiologist(
  db: Db,
  overrides: { email?: string; firstName?: string; lastName?: string; feeDollars?: number } = {},
) {
  return createRadiologistAccount(db, {
    email: overrides.email ?? uniqueEmail('radiologist'),
    password: TEST_PASSWORD,
    title: 'Dr.',
    firstName: overrides.firstName ?? 'Test',
    lastName: overrides.lastName ?? 'Radiologist',
    dob: '1975-05-06',
    expertise: 'Diagnostic',
    bio: 'Reads images.',
    yearsOfExp: 10,
    feeDollars: overrides.feeDollars ?? 150,
  });
}

export interface SignedIn {
  token: string;
  cookie: string;
  auth: AuthResponse;
}

/** Signs in through the real endpoint and returns the bearer token and session cookie. */
export async function signIn(
  app: FastifyInstance,
  email: string,
  password = TEST_PASSWORD,
): Promise<SignedIn> {
  const response = await app.inject({
    method: 'POST',
    url: '/api/auth/signin',
    payload: { email, password },
  });
  if (response.statusCode !== 200) {
    throw new Error(`sign-in failed: ${response.statusCode} ${response.body}`);
  }
  const auth = response.json<AuthResponse>();
  const cookie = response.cookies.find((c) => c.name === 'ra_session')!;
  return { token: auth.token, cookie: `ra_session=${cookie.value}`, auth };
}

export function bearer(token: string): { authorization: string } {
  return { authorization: `Bearer ${token}` };
}
