import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/test-app.js';
import { createPatient, createPhysician, TEST_PASSWORD } from '../../../test/factories.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

function portal(role: string, payload: Record<string, unknown>) {
  return t.app.inject({ method: 'POST', url: `/api/auth/portal/${role}`, payload });
}

describe('POST /api/auth/portal/:role', () => {
  it('refuses an invalid email with 400', async () => {
    const response = await portal('Patient', { email: 'x' });
    expect(response.statusCode).toBe(400);
    expect(response.json().errors[0]).toEqual({ msg: 'Email address must be valid', path: 'email' });
  });

  it('admits an account through its own portal, in any letter case', async () => {
    const physician = await createPhysician(t.database.db);
    for (const role of ['Physician', 'physician', 'PHYSICIAN']) {
      const response = await portal(role, { email: physician.email.toUpperCase() });
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({ success: true });
    }
  });

  it.each(['Radiologist', 'Physician', 'Admin'])(
    'refuses a patient at the %s portal with 409',
    async (role) => {
      const patient = await createPatient(t.database.db);
      const response = await portal(role, { email: patient.email });
      expect(response.statusCode).toBe(409);
      expect(response.json()).toEqual({ success: false, msg: 'Unable to access portal' });
    },
  );

  it('refuses an unknown email with 409', async () => {
    const response = await portal('Patient', { email: 'ghost@example.test' });
    expect(response.statusCode).toBe(409);
  });
});

describe('rate limits', () => {
  it('limits sign-in attempts per email, then per IP, with 429', async () => {
    const limited = await createTestAppWithLimits();
    try {
      const patient = await createPatient(limited.database.db);
      const attempt = (email: string) =>
        limited.app.inject({
          method: 'POST',
          url: '/api/auth/signin',
          payload: { email, password: 'wrong' },
        });
      for (let i = 0; i < 3; i += 1) {
        expect((await attempt(patient.email)).statusCode).toBe(401);
      }
      const blocked = await attempt(patient.email);
      expect(blocked.statusCode).toBe(429);
      expect(blocked.json()).toEqual({ error: 'Too many requests. Try again later.' });
      // Even the right password is refused while the email is blocked.
      const right = await limited.app.inject({
        method: 'POST',
        url: '/api/auth/signin',
        payload: { email: patient.email, password: TEST_PASSWORD },
      });
      expect(right.statusCode).toBe(429);

      // Other emails from the same IP go on until the per-IP limit (5) is reached.
      expect((await attempt('other@example.test')).statusCode).toBe(429);
    } finally {
      await limited.close();
    }
  });

  it('limits the portal check and password reset per IP', async () => {
    const limited = await createTestAppWithLimits();
    try {
      for (const url of ['/api/auth/portal/Patient', '/api/auth/reset-password']) {
        const codes: number[] = [];
        for (let i = 0; i < 6; i += 1) {
          const response = await limited.app.inject({
            method: 'POST',
            url,
            payload: { email: `p${i}@example.test` },
          });
          codes.push(response.statusCode);
        }
        expect(codes.slice(0, 5)).not.toContain(429);
        expect(codes[5]).toBe(429);
      }
    } finally {
      await limited.close();
    }
  });
});

function createTestAppWithLimits() {
  return createTestApp({ AUTH_RATE_LIMIT_PER_IP: '5', AUTH_RATE_LIMIT_PER_EMAIL: '3' });
}
