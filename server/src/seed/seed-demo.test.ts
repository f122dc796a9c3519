import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/test-app.js';
import { signIn } from '../../test/factories.js';
import { isDatabaseEmpty, seedDemo } from './seed-demo.js';
import { DEMO_PASSWORD } from './demo-data.js';

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
