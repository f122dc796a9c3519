import { Readable, Writable } from 'node:stream';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/test-app.js';
import { createPatient, createPhysician } from '../../test/factories.js';
import { auditLog } from '../db/schema/audit.js';
import { RuleViolation } from '../lib/errors.js';
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

describe('DICOM node commands', () => {
  it('adds, lists and removes nodes, auditing each change', async () => {
    const physician = await createPhysician(t.database.db);
    expect(await run('list-dicom-nodes')).toEqual(['No DICOM nodes yet.']);
    expect(await run('add-dicom-node', '--physician', physician.email, '--ae-title', 'CT_ROOM_1')).toEqual([
      `Added DICOM node "CT_ROOM_1" for ${physician.email}.`,
    ]);
    expect(
      await run(
        'add-dicom-node',
        '--physician',
        physician.email.toUpperCase(),
        '--ae-title',
        ' PACS ',
        '--host',
        '10.1.2.3',
        '--port',
        '104',
      ),
    ).toEqual([`Added DICOM node "PACS" for ${physician.email} (host 10.1.2.3, port 104).`]);
    expect(await run('list-dicom-nodes')).toEqual([
      `CT_ROOM_1\t${physician.email}\t-\t-`,
      `PACS\t${physician.email}\t10.1.2.3\t104`,
    ]);
    expect(await run('remove-dicom-node', '--ae-title', 'CT_ROOM_1')).toEqual([
      'Removed DICOM node "CT_ROOM_1".',
    ]);
    expect(await run('list-dicom-nodes')).toEqual([`PACS\t${physician.email}\t10.1.2.3\t104`]);
    const audited = await t.database.db
      .select({ action: auditLog.action })
      .from(auditLog)
      .where(eq(auditLog.recordType, 'dicom-node'));
    expect(audited.map((row) => row.action).sort()).toEqual(['create', 'create', 'delete']);
  });

  it('refuses a taken AE title, an unknown physician, a patient and an unknown node', async () => {
    const physician = await createPhysician(t.database.db);
    const patient = await createPatient(t.database.db);
    await run('add-dicom-node', '--physician', physician.email, '--ae-title', 'TAKEN');
    await expect(
      run('add-dicom-node', '--physician', physician.email, '--ae-title', 'TAKEN'),
    ).rejects.toThrow(new RuleViolation('The AE title "TAKEN" is registered already.'));
    await expect(
      run('add-dicom-node', '--physician', 'nobody@example.com', '--ae-title', 'NEW'),
    ).rejects.toThrow(/No physician account has the email nobody@example\.com/);
    await expect(run('add-dicom-node', '--physician', patient.email, '--ae-title', 'NEW')).rejects.toThrow(
      RuleViolation,
    );
    await expect(run('remove-dicom-node', '--ae-title', 'NEVER')).rejects.toThrow(
      /No DICOM node has the AE title "NEVER"/,
    );
  });

  it('checks the options', async () => {
    const physician = await createPhysician(t.database.db);
    const add = (...options: string[]) => run('add-dicom-node', '--physician', physician.email, ...options);
    await expect(add('--ae-title', 'SEVENTEEN_CHARS_X')).rejects.toThrow(
      /--ae-title must be 1 to 16 characters/,
    );
    await expect(add('--ae-title', 'BACK\\SLASH')).rejects.toThrow(UsageError);
    await expect(add('--ae-title', '   ')).rejects.toThrow(UsageError);
    await expect(add('--ae-title', 'OK', '--host', 'pacs.example.com')).rejects.toThrow(
      /--host must be an IP address/,
    );
    await expect(add('--ae-title', 'OK', '--port', '70000')).rejects.toThrow(/--port must be a port number/);
    await expect(add('--ae-title', 'OK', '--colour', 'red')).rejects.toThrow(UsageError);
    await expect(run('add-dicom-node', '--ae-title', 'OK')).rejects.toThrow(/--physician/);
    expect(await run('list-dicom-nodes')).not.toContainEqual(expect.stringMatching(/^OK\t/));
  });
});
