import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../app.js';
import { createTestApp, type TestApp } from '../../test/test-app.js';
import { bearer, createPatient, createPhysician, signIn, uniqueEmail } from '../../test/factories.js';
import { findLinkInOutbox, readOutbox } from '../../test/outbox.js';
import { SEND_EMAIL_JOB } from './send-email.job.js';

describe('queued emails', () => {
  let t: TestApp;
  beforeAll(async () => {
    // This instance stores jobs but works none, as one that stops before its workers get to them.
    t = await createTestApp({}, { isWorkingJobs: false });
  });
  afterAll(() => t.close());

  it('are sent by the next instance when the one that queued them stopped first', async () => {
    const physician = await createPhysician(t.database.db);
    const patient = await createPatient(t.database.db);
    const invited = uniqueEmail('invited');
    const added = await t.app.inject({
      method: 'POST',
      url: '/api/auth/add-patient',
      headers: bearer((await signIn(t.app, physician.email)).token),
      payload: { email: invited, first_name: 'Ina', last_name: 'Vite', dob: '1991-02-03' },
    });
    expect(added.statusCode).toBe(201);
    const reset = await t.app.inject({
      method: 'POST',
      url: '/api/auth/reset-password',
      payload: { email: patient.email },
    });
    expect(reset.statusCode).toBe(200);
    // Stop without delivering anything: the messages exist only in the database now.
    await t.app.close();
    expect(readOutbox(t.dataDir)).toEqual([]);

    const next = await buildApp({ config: t.config, database: t.database, logger: false });
    try {
      await next.ready();
      await next.ctx.mailer.drain();
      expect(findLinkInOutbox(t.dataDir, invited)).toMatch(/\/reset-password\?token=.+&invite=1$/);
      const link = findLinkInOutbox(t.dataDir, patient.email)!;
      const confirmed = await next.inject({
        method: 'POST',
        url: '/api/auth/reset-password/confirm',
        payload: { token: new URL(link).searchParams.get('token'), password: 'chosen after a restart' },
      });
      expect(confirmed.statusCode).toBe(200);
      expect(readOutbox(t.dataDir)).toHaveLength(2);
    } finally {
      await next.close();
    }
  });
});

describe('an email queued in a transaction', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({}, { jobPollingSeconds: 0.5 });
  });
  afterAll(() => t.close());

  it('is stored with the change that caused it, and dropped with it', async () => {
    const { mailer } = t.app.ctx;
    await t.database.db.transaction(async (tx) => {
      await mailer.enqueue({ to: 'committed@example.test', subject: 'Kept', text: 'Kept.' }, tx);
    });
    await expect(
      t.database.db.transaction(async (tx) => {
        await mailer.enqueue({ to: 'rolled-back@example.test', subject: 'Dropped', text: 'Dropped.' }, tx);
        throw new Error('the change fails');
      }),
    ).rejects.toThrow('the change fails');
    await mailer.drain();
    expect(readOutbox(t.dataDir).map((mail) => mail.to)).toEqual(['committed@example.test']);
    const jobs = await t.database.executeSql('select data from pgboss.job where name = $1', [SEND_EMAIL_JOB]);
    expect(jobs.rows).toHaveLength(1);
  });
});
