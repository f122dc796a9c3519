import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { createTestApp, type TestApp } from '../../../test/test-app.js';
import { bearer, createPatient, createPhysician, signIn } from '../../../test/factories.js';
import { uploadImageFor } from '../../../test/uploads.js';
import { auditLog } from '../../db/schema/audit.js';
import { linkPatient } from '../patients/patients.repository.js';
import { auditChange } from './audit.service.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe('audit log', () => {
  it('keeps rows and refuses to change or delete them', async () => {
    await auditChange(t.database.db, {
      actorId: null,
      patientId: null,
      action: 'read',
      recordType: 'image',
      recordId: 'x',
      ip: '127.0.0.1',
    });
    await expect(t.database.db.update(auditLog).set({ action: 'changed' })).rejects.toThrow();
    await expect(t.database.db.delete(auditLog)).rejects.toThrow();
    expect(await t.database.db.select().from(auditLog)).toHaveLength(1);
  });

  it('refuses TRUNCATE', async () => {
    await expect(t.database.executeSql('truncate audit_log', [])).rejects.toThrow();
    expect(await t.database.db.select().from(auditLog)).not.toHaveLength(0);
  });
});

describe('reads of patient data', () => {
  let physician: { id: string; token: string };
  let patient: { id: string; token: string };
  let imageUid: string;

  beforeAll(async () => {
    const db = t.database.db;
    const doctor = await createPhysician(db);
    const person = await createPatient(db);
    await linkPatient(db, person.id, doctor.id);
    physician = { id: doctor.id, token: (await signIn(t.app, doctor.email)).token };
    patient = { id: person.id, token: (await signIn(t.app, person.email)).token };
    imageUid = await uploadImageFor(t.app, physician.token, patient.id);
  });

  const readsOf = (actorId: string) =>
    t.database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.actorId, actorId), eq(auditLog.action, 'read')));

  it('are in the audit log by the time the response arrives', async () => {
    const before = (await readsOf(physician.id)).length;
    const image = await t.app.inject({
      method: 'GET',
      url: `/api/image/${imageUid}`,
      headers: bearer(physician.token),
    });
    expect(image.statusCode).toBe(200);
    expect(await readsOf(physician.id)).toContainEqual(
      expect.objectContaining({ patientId: patient.id, recordType: 'image', recordId: imageUid }),
    );
    await t.app.inject({
      method: 'GET',
      url: `/api/user/${patient.id}/images`,
      headers: bearer(physician.token),
    });
    await t.app.inject({ method: 'GET', url: '/api/user/patients', headers: bearer(physician.token) });
    const rows = await readsOf(physician.id);
    expect(rows).toHaveLength(before + 3);
    expect(rows.map((row) => row.recordType)).toEqual(
      expect.arrayContaining(['image', 'image-list', 'patient-list']),
    );
  });

  it('include file downloads, audited against the viewer the URL was issued to', async () => {
    const image = (
      await t.app.inject({ method: 'GET', url: `/api/image/${imageUid}`, headers: bearer(physician.token) })
    ).json().image;
    expect(image.url).toMatch(new RegExp(`&u=${physician.id}&p=${patient.id}$`));
    const file = await t.app.inject({ method: 'GET', url: image.url });
    expect(file.statusCode).toBe(200);
    const downloads = await t.database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.actorId, physician.id), eq(auditLog.action, 'download')));
    expect(downloads).toEqual([
      expect.objectContaining({
        patientId: patient.id,
        recordType: 'file',
        recordId: new URL(image.url, 'http://x').pathname.replace('/api/files/', ''),
      }),
    ]);

    // The viewer and the patient are under the signature: changing or dropping them is refused.
    const swapped = image.url.replace(`u=${physician.id}`, `u=${patient.id}`);
    const relabelled = image.url.replace(`p=${patient.id}`, `p=${physician.id}`);
    const stripped = image.url.replace(/&u=.*$/, '');
    for (const url of [swapped, relabelled, stripped]) {
      const response = await t.app.inject({ method: 'GET', url });
      expect(response.statusCode).toBe(403);
    }
  });

  it('fail with 500 and send no data when the audit row cannot be written', async () => {
    const image = (
      await t.app.inject({ method: 'GET', url: `/api/image/${imageUid}`, headers: bearer(physician.token) })
    ).json().image;
    await t.database.executeSql(
      `create function audit_log_test_failure() returns trigger language plpgsql as $$
         begin raise exception 'audit store unavailable'; end $$;
       create trigger audit_log_test_failure before insert on audit_log
         for each row execute function audit_log_test_failure();`,
      [],
    );
    try {
      for (const url of [`/api/image/${imageUid}`, `/api/user/${patient.id}/images`, '/api/user/patients']) {
        const response = await t.app.inject({ method: 'GET', url, headers: bearer(physician.token) });
        expect(response.statusCode).toBe(500);
        expect(response.json()).toEqual({ error: 'Something went wrong.' });
      }
      const profile = await t.app.inject({
        method: 'GET',
        url: '/api/user/profile',
        headers: bearer(patient.token),
      });
      expect(profile.statusCode).toBe(500);
      expect(profile.body).toBe('{"error":"Something went wrong."}');
      const file = await t.app.inject({ method: 'GET', url: image.url });
      expect(file.statusCode).toBe(500);
      expect(file.headers['content-type']).toMatch(/^application\/json/);
      expect(file.body).toBe('{"error":"Something went wrong."}');
    } finally {
      await t.database.executeSql(
        'drop trigger audit_log_test_failure on audit_log; drop function audit_log_test_failure();',
        [],
      );
    }
    const again = await t.app.inject({
      method: 'GET',
      url: `/api/image/${imageUid}`,
      headers: bearer(physician.token),
    });
    expect(again.statusCode).toBe(200);
  });
});
