import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../app.js';
import { createTestApp, type TestApp } from '../../test/test-app.js';
import { createPatient, signIn, TEST_PASSWORD } from '../../test/factories.js';
import * as identityRepo from '../modules/identity/identity.repository.js';
import { hashPassword } from '../modules/identity/password-hash.js';
import { isDatabaseEmpty, seedDemo } from './seed-demo.js';
import { DEMO_PASSWORD } from './demo-data.js';
import { isLoopbackHost, shouldSeedDemo } from '../modules/identity/demo-exposure.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe('demo data', () => {
  it('creates the hospitals, radiologists and three ready accounts, and running it twice changes nothing', async () => {
    expect(await isDatabaseEmpty(t.database.db)).toBe(true);
    await seedDemo(t.database.db);
    await seedDemo(t.database.db);
    expect(await isDatabaseEmpty(t.database.db)).toBe(false);

    const hospitals = (await t.app.inject({ method: 'GET', url: '/api/hospital/hospitals' })).json()
      .hospitals;
    expect(hospitals.map((h: { name: string }) => h.name)).toEqual([
      'City General Medical Center',
      'Green Valley Health Center',
      'Maplewood Community Hospital',
      "St. John's Hospital",
      'Sunset Memorial Hospital',
    ]);
    const roster = await t.database.db.query.rosterPhysicians.findMany();
    expect(roster.filter((entry) => entry.claimedBy === null)).toHaveLength(15);

    const radiologists = (await t.app.inject({ method: 'GET', url: '/api/user/radiologists' })).json()
      .radiologists;
    expect(
      radiologists.map(
        (r: { first_name: string; last_name: string; expertise: string }) =>
          `${r.first_name} ${r.last_name} (${r.expertise})`,
      ),
    ).toEqual([
      'Laura Davis (Musculoskeletal)',
      'Emily Johnson (Diagnostic)',
      'Monica Kirk (Pediatric)',
      'John Radiologist (Neuroradiology)',
      'Robert Rivera (Abdominal)',
      'David Smith (Neuroradiology)',
    ]);
    for (const r of radiologists) {
      expect(r.bio.length).toBeGreaterThan(20);
      expect(r.years_of_exp).toBeGreaterThan(0);
      expect(r.fee).toBeGreaterThan(0);
    }

    const roles = {
      'patient@example.com': 'Patient',
      'physician@example.com': 'Physician',
      'radiologist@example.com': 'Radiologist',
    };
    for (const [email, role] of Object.entries(roles)) {
      const session = await signIn(t.app, email, DEMO_PASSWORD);
      expect(session.auth.user.role).toBe(role);
    }
    const physician = await t.database.db.query.users.findFirst({
      where: (u, { eq }) => eq(u.email, 'physician@example.com'),
    });
    const patient = await t.database.db.query.users.findFirst({
      where: (u, { eq }) => eq(u.email, 'patient@example.com'),
    });
    const link = await t.database.db.query.patientPhysicians.findFirst({
      where: (l, { eq }) => eq(l.patientId, patient!.id),
    });
    expect(link?.physicianId).toBe(physician!.id);
  });
});

describe('when to seed', () => {
  it.each([
    ['127.0.0.1', true],
    ['127.8.9.10', true],
    ['localhost', true],
    ['LOCALHOST', true],
    ['::1', true],
    ['[::1]', true],
    ['0:0:0:0:0:0:0:1', true],
    ['::ffff:127.0.0.1', true],
    ['0.0.0.0', false],
    ['::', false],
    ['192.168.1.20', false],
    ['10.0.0.5', false],
    ['fe80::1', false],
    ['archive.example.org', false],
  ])('HOST %s is loopback: %s', (host, expected) => {
    expect(isLoopbackHost(host)).toBe(expected);
  });

  it('seeds an empty embedded database on loopback only, unless SEED_DEMO says otherwise', () => {
    const decide = (seedDemo: boolean | undefined, host: string, isEmbeddedDatabaseEmpty: boolean) =>
      shouldSeedDemo({ seedDemo, host, isEmbeddedDatabaseEmpty });
    expect(decide(undefined, '127.0.0.1', true)).toBe(true);
    expect(decide(undefined, '::1', true)).toBe(true);
    expect(decide(undefined, 'localhost', true)).toBe(true);
    expect(decide(undefined, '127.0.0.1', false)).toBe(false);
    expect(decide(undefined, '0.0.0.0', true)).toBe(false);
    expect(decide(undefined, '::', true)).toBe(false);
    expect(decide(undefined, '192.168.1.20', true)).toBe(false);
    expect(decide(true, '0.0.0.0', false)).toBe(true);
    expect(decide(false, '127.0.0.1', true)).toBe(false);
  });
});

describe('demo accounts', () => {
  it('are never reset to the published password by a later seed', async () => {
    await seedDemo(t.database.db);
    const physician = await identityRepo.findUserByEmail(t.database.db, 'physician@example.com');
    await identityRepo.updatePasswordHash(t.database.db, physician!.id, await hashPassword(TEST_PASSWORD));
    await seedDemo(t.database.db);
    const wrong = await t.app.inject({
      method: 'POST',
      url: '/api/auth/signin',
      payload: { email: 'physician@example.com', password: DEMO_PASSWORD },
    });
    expect(wrong.statusCode).toBe(401);
    expect((await signIn(t.app, 'physician@example.com', TEST_PASSWORD)).auth.user.role).toBe('Physician');
  });

  it('with the published password cannot sign in on a server listening beyond loopback', async () => {
    await seedDemo(t.database.db);
    const other = await createPatient(t.database.db);
    const onLoopback = await signIn(t.app, 'patient@example.com', DEMO_PASSWORD);
    const warnings: string[] = [];
    const exposed = await buildApp({
      config: { ...t.config, host: '0.0.0.0' },
      database: t.database,
      logger: { level: 'warn', stream: { write: (line: string) => warnings.push(JSON.parse(line).msg) } },
    });
    try {
      await exposed.ready();
      expect(warnings).toContain(
        'demo account patient@example.com has the published demo password and the server listens on 0.0.0.0: ' +
          'its sign-in is refused; change its password or listen on 127.0.0.1',
      );
      expect(warnings).toContain(
        'demo account radiologist@example.com has the published demo password and the server listens on 0.0.0.0: ' +
          'its sign-in is refused; change its password or listen on 127.0.0.1',
      );
      // The physician's password was changed above: nothing to say about it.
      expect(warnings.join('\n')).not.toContain('physician@example.com');

      for (const email of ['patient@example.com', 'radiologist@example.com']) {
        const refused = await exposed.inject({
          method: 'POST',
          url: '/api/auth/signin',
          payload: { email, password: DEMO_PASSWORD },
        });
        expect(refused.statusCode).toBe(401);
        expect(refused.json()).toEqual({ error: 'The email or password is incorrect' });
      }
      // A session opened while the server was local ends too.
      const refresh = await exposed.inject({
        method: 'POST',
        url: '/api/auth/refresh',
        headers: { cookie: onLoopback.cookie },
      });
      expect(refresh.statusCode).toBe(401);
      expect((await signIn(exposed, other.email)).auth.user.role).toBe('Patient');
      expect((await signIn(exposed, 'physician@example.com', TEST_PASSWORD)).auth.user.role).toBe(
        'Physician',
      );

      // Once its owner chooses another password, the account signs in again.
      const patient = await identityRepo.findUserByEmail(t.database.db, 'patient@example.com');
      await identityRepo.updatePasswordHash(t.database.db, patient!.id, await hashPassword('a new password'));
      expect((await signIn(exposed, 'patient@example.com', 'a new password')).auth.user.role).toBe('Patient');
    } finally {
      await exposed.close();
    }
  });
});
