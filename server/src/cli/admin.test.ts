import { execFile, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PassThrough, Readable, Writable } from 'node:stream';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/test-app.js';
import { signIn, uniqueEmail } from '../../test/factories.js';
import { lockFile } from '../lib/data-dir-lock.js';
import { runAdminCommand, UsageError } from './admin-commands.js';
import { RuleViolation } from '../lib/errors.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

/** What a command wrote to stderr (prompts, warnings). */
let stderr = '';
function captureStderr(onWrite: (text: string) => void = () => undefined): Writable {
  return new Writable({
    write(chunk: Buffer, _encoding, done) {
      stderr += chunk.toString();
      onWrite(chunk.toString());
      done();
    },
  });
}

const run = (...argv: string[]) => {
  stderr = '';
  return runAdminCommand(t.database.db, argv, { stdin: Readable.from([]), stderr: captureStderr() });
};

const radiologistOptions = (email: string) => [
  '--email',
  email,
  '--first',
  'Pia',
  '--last',
  'Stdin',
  '--expertise',
  'Diagnostic',
  '--years',
  '3',
  '--fee',
  '120',
];

describe('admin commands', () => {
  it('adds and lists hospitals, refusing duplicates', async () => {
    expect(await run('list-hospitals')).toEqual(['No hospitals yet.']);
    expect((await run('add-hospital', '--name', ' Lakeside Clinic '))[0]).toMatch(
      /^Added hospital "Lakeside Clinic"/,
    );
    await expect(run('add-hospital', '--name', 'Lakeside Clinic')).rejects.toThrow(RuleViolation);
    expect((await run('list-hospitals'))[0]).toMatch(/^Lakeside Clinic\t[0-9a-f-]{36}$/);
  });

  it('adds roster physicians who can then sign up', async () => {
    await run('add-hospital', '--name', 'Roster Hospital');
    await run(
      'add-roster-physician',
      '--hospital',
      'Roster Hospital',
      '--first',
      'Ana',
      '--last',
      'Silva',
      '--dob',
      '1981-02-03',
    );
    await expect(
      run(
        'add-roster-physician',
        '--hospital',
        'Nowhere',
        '--first',
        'A',
        '--last',
        'B',
        '--dob',
        '1981-02-03',
      ),
    ).rejects.toThrow('No hospital is named "Nowhere". See list-hospitals.');
    await expect(
      run(
        'add-roster-physician',
        '--hospital',
        'Roster Hospital',
        '--first',
        'A',
        '--last',
        'B',
        '--dob',
        '1981-02-31',
      ),
    ).rejects.toThrow(UsageError);

    const hospitals = await t.app.inject({ method: 'GET', url: '/api/hospital/hospitals' });
    const hospital = hospitals.json().hospitals.find((h: { name: string }) => h.name === 'Roster Hospital');
    const signup = await t.app.inject({
      method: 'POST',
      url: '/api/auth/signup',
      payload: {
        role: 'PHYSICIAN',
        hospital: hospital.uid,
        first_name: 'Ana',
        last_name: 'Silva',
        dob: '1981-02-03',
        email: 'ana.silva@example.test',
        password: 'long enough',
      },
    });
    expect(signup.statusCode).toBe(201);
  });

  it('adds a radiologist who can sign in through the radiologist portal and never prints the password', async () => {
    const lines = await run(
      'add-radiologist',
      '--email',
      ' Rad@Example.test ',
      '--password',
      'radiologist-secret',
      '--title',
      'Dr.',
      '--first',
      'Rita',
      '--last',
      'Ng',
      '--expertise',
      'Pediatric',
      '--bio',
      'Kids.',
      '--years',
      '7',
      '--fee',
      '99.95',
    );
    expect(lines.join('\n')).not.toContain('radiologist-secret');
    expect(lines[0]).toMatch(/^Added radiologist Dr\. Rita Ng <rad@example\.test>/);
    expect(stderr).toBe(
      'warning: --password is visible to other users of this machine; use --password-stdin\n',
    );
    const session = await signIn(t.app, 'rad@example.test', 'radiologist-secret');
    expect(session.auth.user.role).toBe('Radiologist');
    const list = await t.app.inject({ method: 'GET', url: '/api/user/radiologists' });
    expect(list.json().radiologists[0]).toMatchObject({
      first_name: 'Rita',
      fee: 99.95,
      years_of_exp: 7,
      bio: 'Kids.',
    });
  });

  it.each([
    [
      ['add-radiologist', '--email', 'x', '--password', 'radiologist-secret'],
      '--email must be a valid email address',
    ],
    [
      [
        'add-radiologist',
        '--email',
        'a@b.co',
        '--password',
        'short',
        '--first',
        'A',
        '--last',
        'B',
        '--expertise',
        'E',
        '--years',
        '1',
        '--fee',
        '1',
      ],
      'Password must be at least 8 characters long',
    ],
    [
      [
        'add-radiologist',
        '--email',
        'a@b.co',
        '--password',
        'long enough',
        '--first',
        'A',
        '--last',
        'B',
        '--expertise',
        'E',
        '--years',
        'many',
        '--fee',
        '1',
      ],
      '--years must be a whole number',
    ],
    [
      [
        'add-radiologist',
        '--email',
        'a@b.co',
        '--password',
        'long enough',
        '--first',
        'A',
        '--last',
        'B',
        '--expertise',
        'E',
        '--years',
        '1',
        '--fee=-5',
      ],
      '--fee must be an amount in dollars',
    ],
    [['add-hospital'], '--name is required'],
    [['add-hospital', '--nme', 'x'], "Unknown option '--nme'"],
    [['frobnicate'], 'Unknown command "frobnicate".'],
  ])('refuses %o with a usage error', async (argv, message) => {
    await expect(run(...argv)).rejects.toThrow(message);
  });
});

describe('add-radiologist passwords', () => {
  it('reads the first line of standard input with --password-stdin, without its line ending', async () => {
    for (const [input, password] of [
      ['from-stdin-secret\nsecond line is ignored\n', 'from-stdin-secret'],
      ['windows line end\r\n', 'windows line end'],
      ['no line end at all', 'no line end at all'],
    ] as const) {
      const email = uniqueEmail('stdin');
      stderr = '';
      const lines = await runAdminCommand(
        t.database.db,
        ['add-radiologist', ...radiologistOptions(email), '--password-stdin'],
        { stdin: Readable.from([Buffer.from(input)]), stderr: captureStderr() },
      );
      expect(lines[0]).toContain(`<${email}>`);
      expect(lines.join('\n') + stderr).not.toContain(password);
      expect(stderr).toBe('');
      expect((await signIn(t.app, email, password)).auth.user.role).toBe('Radiologist');
    }
  });

  it('asks twice on a terminal without echoing what is typed', async () => {
    const email = uniqueEmail('prompt');
    const terminal = Object.assign(new PassThrough(), { isTTY: true });
    stderr = '';
    const lines = await runAdminCommand(t.database.db, ['add-radiologist', ...radiologistOptions(email)], {
      stdin: terminal,
      // Type the answer only once its prompt is on the screen, as a person would.
      stderr: captureStderr((text) => {
        if (text.endsWith('Password: ') || text.endsWith('Repeat the password: ')) {
          setImmediate(() => terminal.write('typed in secret\r'));
        }
      }),
    });
    expect(lines[0]).toContain(`<${email}>`);
    expect(stderr).toBe('Password: \nRepeat the password: \n');
    expect((await signIn(t.app, email, 'typed in secret')).auth.user.role).toBe('Radiologist');
  });

  it('refuses two different answers on the terminal, a too short password, no source, and two sources', async () => {
    const terminal = Object.assign(new PassThrough(), { isTTY: true });
    let answers = ['first answer', 'second answer'];
    const mismatch = runAdminCommand(
      t.database.db,
      ['add-radiologist', ...radiologistOptions(uniqueEmail())],
      {
        stdin: terminal,
        stderr: captureStderr((text) => {
          if (text.endsWith(': ')) {
            const [answer, ...rest] = answers;
            answers = rest;
            setImmediate(() => terminal.write(`${answer}\n`));
          }
        }),
      },
    );
    await expect(mismatch).rejects.toThrow('The passwords do not match.');

    const withInput = (input: string, ...extra: string[]) =>
      runAdminCommand(t.database.db, ['add-radiologist', ...radiologistOptions(uniqueEmail()), ...extra], {
        stdin: Readable.from([Buffer.from(input)]),
        stderr: captureStderr(),
      });
    await expect(withInput('short\n', '--password-stdin')).rejects.toThrow(
      'Password must be at least 8 characters long',
    );
    await expect(withInput('')).rejects.toThrow(UsageError);
    await expect(withInput('long enough\n', '--password-stdin', '--password', 'long enough')).rejects.toThrow(
      'not both',
    );
  });
});

describe('the admin process', () => {
  const exec = promisify(execFile);
  const serverDir = path.resolve(import.meta.dirname, '..', '..');

  async function admin(dataDir: string, ...args: string[]) {
    try {
      const { stdout, stderr } = await exec('npx', ['tsx', 'src/cli/admin.ts', ...args], {
        cwd: serverDir,
        env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: '' },
      });
      return { code: 0, stdout, stderr };
    } catch (err) {
      const e = err as { code: number; stdout: string; stderr: string };
      return { code: e.code, stdout: e.stdout, stderr: e.stderr };
    }
  }

  function adminWithInput(dataDir: string, input: string, ...args: string[]) {
    const child = spawn('npx', ['tsx', 'src/cli/admin.ts', ...args], {
      cwd: serverDir,
      env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: '' },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.stdin.end(input);
    return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) =>
      child.on('close', (code) => resolve({ code, stdout, stderr })),
    );
  }

  it('exits 0 on success, non-zero with a message on failure, and refuses a database the server holds', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ra-admin-'));
    try {
      const added = await admin(dataDir, 'add-hospital', '--name', 'Process Clinic');
      expect(added.code).toBe(0);
      expect(added.stdout).toContain('Added hospital "Process Clinic"');

      const radiologist = await adminWithInput(
        dataDir,
        'piped-in-secret\n',
        'add-radiologist',
        ...radiologistOptions('piped@example.test'),
        '--password-stdin',
      );
      expect(radiologist.code).toBe(0);
      expect(radiologist.stdout).toContain('<piped@example.test>');
      expect(radiologist.stdout + radiologist.stderr).not.toContain('piped-in-secret');

      const duplicate = await admin(dataDir, 'add-hospital', '--name', 'Process Clinic');
      expect(duplicate.code).toBe(2);
      expect(duplicate.stderr).toContain('A hospital named "Process Clinic" already exists.');

      // Pretend a server (this test process) holds the embedded database.
      fs.writeFileSync(lockFile(dataDir), String(process.pid));
      const locked = await admin(dataDir, 'list-hospitals');
      expect(locked.code).toBe(1);
      expect(locked.stderr).toContain('has the embedded database');
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
    // Four CLI processes, each starting TypeScript and the embedded database.
  }, 90_000);
});
