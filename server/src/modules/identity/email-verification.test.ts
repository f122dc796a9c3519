import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/test-app.js';
import { bearer, createPatient, createPhysician, signIn, uniqueEmail } from '../../../test/factories.js';
import { findLinkInOutbox, readOutbox } from '../../../test/outbox.js';
import { pngImage, uploadFile } from '../../../test/uploads.js';

let t: TestApp;
let physician: { id: string; token: string };
beforeAll(async () => {
  t = await createTestApp();
  const doctor = await createPhysician(t.database.db, { firstName: 'Gina', lastName: 'House' });
  physician = { id: doctor.id, token: (await signIn(t.app, doctor.email)).token };
});
afterAll(() => t.close());

const INVALID = { errors: [{ msg: 'This link is invalid or has expired.', path: 'token' }] };
const jane = { first_name: 'Jane', last_name: 'Rivers', dob: '1979-04-12' };

async function signUpPatient(email: string, password = 'squatter password') {
  const response = await t.app.inject({
    method: 'POST',
    url: '/api/auth/signup',
    payload: { role: 'PATIENT', email, password, first_name: 'Mal', last_name: 'Lory', dob: '1990-01-01' },
  });
  expect(response.statusCode).toBe(201);
}

async function latestLink(email: string): Promise<string> {
  await t.app.ctx.mailer.drain();
  const link = findLinkInOutbox(t.dataDir, email);
  expect(link).toBeDefined();
  return link!;
}

const tokenOf = (link: string) => new URL(link).searchParams.get('token');

function verify(token: string | null, headers: Record<string, string> = {}) {
  return t.app.inject({ method: 'POST', url: '/api/auth/verify-email', headers, payload: { token } });
}

function addPatient(payload: Record<string, unknown>) {
  return t.app.inject({
    method: 'POST',
    url: '/api/auth/add-patient',
    headers: bearer(physician.token),
    payload,
  });
}

describe('email confirmation after sign-up', () => {
  it('sends a single-use link; the account is unconfirmed until it is opened', async () => {
    const email = uniqueEmail('new');
    await signUpPatient(email, 'my password 1');
    const session = await signIn(t.app, email, 'my password 1');
    expect(session.auth.user.email_verified).toBe(false);
    await t.app.ctx.mailer.drain();
    const mail = readOutbox(t.dataDir).find((m) => m.to.includes(email))!;
    expect(mail.subject).toBe('Confirm your email address');
    const link = await latestLink(email);
    expect(link).toMatch(/^http:\/\/localhost:3000\/verify-email\?token=[\w-]{43}$/);

    expect((await verify(tokenOf(link))).json()).toEqual({ success: true });
    const me = await t.app.inject({ method: 'GET', url: '/api/user/me', headers: bearer(session.token) });
    expect(me.json().email_verified).toBe(true);
    const again = await verify(tokenOf(link));
    expect(again.statusCode).toBe(400);
    expect(again.json()).toEqual(INVALID);
  });

  it.each([[''], ['made-up-token'], ['x'.repeat(500)]])('refuses the token %j with 400', async (token) => {
    const response = await verify(token);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual(INVALID);
  });

  it('never lets a confirmation link reset a password', async () => {
    const email = uniqueEmail('purpose');
    await signUpPatient(email);
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/auth/reset-password/confirm',
      payload: { token: tokenOf(await latestLink(email)), password: 'attacker password' },
    });
    expect(response.statusCode).toBe(400);
  });

  it('resends a new link to a signed-in, unconfirmed user (the old one stops working), within a limit', async () => {
    const email = uniqueEmail('resend');
    await signUpPatient(email, 'my password 1');
    const first = await latestLink(email);
    const { token } = await signIn(t.app, email, 'my password 1');
    const resend = () =>
      t.app.inject({ method: 'POST', url: '/api/auth/verify-email/resend', headers: bearer(token) });
    expect((await t.app.inject({ method: 'POST', url: '/api/auth/verify-email/resend' })).statusCode).toBe(
      401,
    );
    const response = await resend();
    expect(response.statusCode).toBe(200);
    const second = await latestLink(email);
    expect(second).not.toBe(first);
    expect((await verify(tokenOf(first))).statusCode).toBe(400);
    await resend();
    await resend();
    const limited = await resend();
    expect(limited.statusCode).toBe(429);
    expect(limited.json()).toEqual({ error: 'Too many requests. Try again later.' });
    expect((await verify(tokenOf(await latestLink(email)))).statusCode).toBe(200);
  });
});

describe('an address claimed before its owner', () => {
  it('goes to whoever proves it through the invitation; the squatter loses the account', async () => {
    const email = uniqueEmail('jane');
    // The attacker signs up with Jane's address before her physician adds her.
    await signUpPatient(email, 'squatter password');
    const squatter = await signIn(t.app, email, 'squatter password');

    const added = await addPatient({ email, ...jane });
    expect(added.statusCode).toBe(201);
    expect(added.json()).toEqual({ success: true, msg: 'Successfully added new patient' });

    // The squatter is out at once, and their password no longer works.
    const me = await t.app.inject({ method: 'GET', url: '/api/user/me', headers: bearer(squatter.token) });
    expect(me.statusCode).toBe(401);
    await expect(signIn(t.app, email, 'squatter password')).rejects.toThrow();
    const refresh = await t.app.inject({
      method: 'POST',
      url: '/api/auth/refresh',
      headers: { cookie: squatter.cookie },
    });
    expect(refresh.statusCode).toBe(401);

    // The physician uploads for Jane.
    const patientUid =
      added.json().uid ??
      (
        await t.app.inject({
          method: 'GET',
          url: '/api/user/patients',
          headers: bearer(physician.token),
        })
      )
        .json<{ patients: { uid: string; email: string }[] }>()
        .patients.find((p) => p.email === email)!.uid;
    const url = await uploadFile(t.app, physician.token, await pngImage());
    const uploaded = await t.app.inject({
      method: 'POST',
      url: '/api/user/upload-image',
      headers: bearer(physician.token),
      payload: { patient: patientUid, notes: 'for Jane', url },
    });
    expect(uploaded.statusCode).toBe(201);

    // The squatter's old confirmation link is spent; the invitation's owner takes the account.
    await t.app.ctx.mailer.drain();
    const mails = readOutbox(t.dataDir).filter((m) => m.to.includes(email));
    const confirmation = mails.find((m) => m.subject === 'Confirm your email address')!;
    const squatterToken = tokenOf(/https?:\/\/\S+/.exec(confirmation.body)![0]);
    expect((await verify(squatterToken)).statusCode).toBe(400);
    const invitation = mails.find((m) => m.subject === 'Dr. Gina House invited you to Radiology Archive')!;
    const inviteToken = tokenOf(/https?:\/\/\S+/.exec(invitation.body)![0]);
    const accepted = await t.app.inject({
      method: 'POST',
      url: '/api/auth/reset-password/confirm',
      payload: { token: inviteToken, password: 'janes own password' },
    });
    expect(accepted.statusCode).toBe(200);
    const owner = await signIn(t.app, email, 'janes own password');
    expect(owner.auth.user).toMatchObject({ displayName: 'Jane Rivers', email_verified: true });
    const images = await t.app.inject({
      method: 'GET',
      url: `/api/user/${owner.auth.user.uid}/images`,
      headers: bearer(owner.token),
    });
    expect(images.statusCode).toBe(200);
    expect(images.json().images.map((i: { authors: { note: string }[] }) => i.authors[0]!.note)).toEqual([
      'for Jane',
    ]);
  });
});

describe('linking an existing, confirmed patient', () => {
  it('needs the first name, last name and date of birth of the account', async () => {
    const patient = await createPatient(t.database.db, { firstName: 'Olga', lastName: 'Berg' });
    for (const wrong of [
      { first_name: 'Olga', last_name: 'Berg', dob: '1985-02-04' },
      { first_name: 'Olga', last_name: 'Borg', dob: '1985-02-03' },
      { first_name: 'Olivia', last_name: 'Berg', dob: '1985-02-03' },
    ]) {
      const response = await addPatient({ email: patient.email, ...wrong });
      expect(response.statusCode).toBe(409);
      expect(response.json()).toEqual({
        success: false,
        msg: "The details do not match this patient's account.",
      });
    }
    const missing = await addPatient({ email: patient.email });
    expect(missing.statusCode).toBe(400);
    expect(missing.json()).toEqual({ errors: [{ msg: 'First name is required', path: 'first_name' }] });
    const linked = await addPatient({
      email: patient.email,
      first_name: ' olga ',
      last_name: 'BERG',
      dob: '1985-02-03',
    });
    expect(linked.statusCode).toBe(200);
    expect(linked.json()).toEqual({ success: true, msg: 'Successfully added patient' });
  });
});
