import { Readable, Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/test-app.js';
import { createPatient, createPhysician } from '../../test/factories.js';
import { auditLog } from '../db/schema/audit.js';
import { runAdminCommand, UsageError } from './admin-commands.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const run = (...argv: string[]) =>
  runAdminCommand(t.database.db, argv, {
    stdin: Readable.from([]),
    stderr: new Writable({ write: (_chunk, _encoding, done) => done() }),
  });

describe('audit', () => {
  it('prints who accessed what of one patient, oldest first, from a date on', async () => {
    const patient = await createPatient(t.database.db, { firstName: 'Ada', lastName: 'Audit' });
    const physician = await createPhysician(t.database.db, { firstName: 'Gus', lastName: 'Reader' });
    const other = await createPatient(t.database.db);
    await t.database.db.insert(auditLog).values([
      {
        actorId: physician.id,
        patientId: patient.id,
        action: 'read',
        recordType: 'image',
        recordId: 'image-2',
        ip: '10.0.0.7',
        createdAt: new Date('2025-03-04T05:06:07.089Z'),
      },
      {
        actorId: null,
        patientId: patient.id,
        action: 'update',
        recordType: 'profile',
        recordId: patient.id,
        ip: null,
        createdAt: new Date('2025-03-05T00:00:00.000Z'),
      },
      {
        actorId: physician.id,
        patientId: patient.id,
        action: 'create',
        recordType: 'patient',
        recordId: patient.id,
        ip: '127.0.0.1',
        createdAt: new Date('2024-12-31T23:59:59.999Z'),
      },
      {
        actorId: physician.id,
        patientId: other.id,
        action: 'read',
        recordType: 'image',
        recordId: 'someone-else',
        ip: '10.0.0.7',
        createdAt: new Date('2025-03-04T00:00:00.000Z'),
      },
    ]);
    const doctor = `Dr. Gus Reader (Physician, ${physician.email})`;
    expect(await run('audit', '--patient', ` ${patient.email.toUpperCase()} `)).toEqual([
      `2024-12-31T23:59:59.999Z\t${doctor}\tcreate\tpatient\t${patient.id}\t127.0.0.1`,
      `2025-03-04T05:06:07.089Z\t${doctor}\tread\timage\timage-2\t10.0.0.7`,
      `2025-03-05T00:00:00.000Z\t—\tupdate\tprofile\t${patient.id}\t—`,
    ]);
    expect(await run('audit', '--patient', patient.email, '--since', '2025-01-01')).toEqual([
      `2025-03-04T05:06:07.089Z\t${doctor}\tread\timage\timage-2\t10.0.0.7`,
      `2025-03-05T00:00:00.000Z\t—\tupdate\tprofile\t${patient.id}\t—`,
    ]);
    expect(await run('audit', '--patient', patient.email, '--since', '2025-03-06')).toEqual([
      `No access to the records of ${patient.email} is recorded since 2025-03-06.`,
    ]);
  });

  it.each([
    [['audit'], '--patient must be a valid email address'],
    [['audit', '--patient', 'nobody@example.test'], 'No patient account has the email nobody@example.test.'],
    [['audit', '--patient', 'a@b.co', '--since', '2025-02-30'], '--since must be a date written YYYY-MM-DD'],
    [['audit', '--patient', 'a@b.co', '--since', 'yesterday'], '--since must be a date written YYYY-MM-DD'],
  ])('refuses %o with a usage error', async (argv, message) => {
    const refused = run(...argv);
    await expect(refused).rejects.toThrow(UsageError);
    await expect(refused).rejects.toThrow(message);
  });

  it('does not list a physician as a patient', async () => {
    const physician = await createPhysician(t.database.db);
    await expect(run('audit', '--patient', physician.email)).rejects.toThrow('No patient account');
  });
});
