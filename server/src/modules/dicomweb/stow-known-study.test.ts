import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { and, eq, type SQL } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import { ERROR_BODIES, STUDY_MESSAGES } from '@ra/shared';
import { createTestApp, type TestApp } from '../../../test/test-app.js';
import { newUid } from '../../../test/dicom-files.js';
import { hostileFile } from '../../../test/hostile-dicom.js';
import { physicianWithPatient, stow as stowRequest, stowFailureReasons } from '../../../test/stow.js';
import { archiveItems } from '../../db/schema/archive-items.js';
import { auditLog } from '../../db/schema/audit.js';
import { dicomInstances, studies } from '../../db/schema/studies.js';
import { users } from '../../db/schema/users.js';

/*
 * A study sent instance by instance: from its second request on, each is filed in one statement
 * that checks what the first request read (known-studies.ts, migration 0023). These tests watch
 * one instance's statements, so they address it alone, not a pair behind the proxy.
 */

/** The patient the hostile files name. */
const JANE = { firstName: 'Jane', lastName: 'Doe', dob: '1980-04-02' };
// 2.5 files of this size fit in the quota of the second app.
const FILE_BYTES = hostileFile().bytes.length;

/** The database functions each STOW-RS request called, in order. */
function watchFilingStatements(t: TestApp) {
  const dialect = new PgDialect();
  const execute = vi.spyOn(t.database.db, 'execute');
  return {
    since: () => {
      const names = execute.mock.calls
        .map(([query]) => /select (?:\* from )?(\w+)\(/.exec(dialect.sqlToQuery(query as SQL).sql)?.[1])
        .filter((name) => name === 'filing_state' || name?.startsWith('file_'));
      execute.mockClear();
      return names;
    },
    stop: () => execute.mockRestore(),
  };
}

describe('STOW-RS into a study this instance filed before', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({}, { proxied: false });
  });
  afterAll(() => t.close());

  it('files each next request in one statement, which keeps the patient’s UIDs unique and the audit', async () => {
    const { physician, patient } = await physicianWithPatient(t, { patient: JANE });
    const query = `?patient=${patient.id}`;
    const studyUid = newUid();
    const seriesUid = newUid();
    const first = hostileFile({ studyUid, seriesUid });
    const second = hostileFile({ studyUid, seriesUid });
    const watch = watchFilingStatements(t);
    try {
      expect((await stowRequest(t.app, physician.token, [first.bytes], query)).statusCode).toBe(200);
      expect(watch.since()).toEqual(['filing_state']);
      expect((await stowRequest(t.app, physician.token, [second.bytes], query)).statusCode).toBe(200);
      expect(watch.since()).toEqual(['file_known_study_instances']);

      // An instance of the patient's other study, sent again as this study's: stored once, there.
      const otherStudy = hostileFile();
      expect((await stowRequest(t.app, physician.token, [otherStudy.bytes], query)).statusCode).toBe(200);
      const moved = hostileFile({ studyUid, seriesUid, sopUid: otherStudy.sopUid });
      const again = await stowRequest(t.app, physician.token, [moved.bytes, second.bytes], query);
      expect(again.statusCode).toBe(200);
      expect(watch.since()).toEqual(['filing_state', 'file_known_study_instances']);
    } finally {
      watch.stop();
    }
    const [study] = await t.database.db.select().from(studies).where(eq(studies.studyInstanceUid, studyUid));
    expect(study).toMatchObject({ instanceCount: 2, seriesCount: 1 });
    const rows = await t.database.db
      .select({ itemId: dicomInstances.itemId })
      .from(dicomInstances)
      .innerJoin(studies, eq(studies.itemId, dicomInstances.itemId))
      .where(and(eq(studies.namespaceId, patient.id)));
    expect(rows).toHaveLength(3);
    const [item] = await t.database.db.select().from(archiveItems).where(eq(archiveItems.id, study!.itemId));
    expect(item!.size).toBe(first.bytes.length + second.bytes.length);
    const updates = await t.database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.recordId, study!.itemId), eq(auditLog.action, 'update')));
    expect(updates).toHaveLength(2);
  });

  it('answers as if nothing were known when the patient changed since, and files nothing first', async () => {
    const { physician, patient } = await physicianWithPatient(t, { patient: JANE });
    const query = `?patient=${patient.id}`;
    const studyUid = newUid();
    const files = [hostileFile({ studyUid }), hostileFile({ studyUid }), hostileFile({ studyUid })];
    for (const file of files.slice(0, 2)) {
      expect((await stowRequest(t.app, physician.token, [file.bytes], query)).statusCode).toBe(200);
    }
    // Renamed where this instance does not hear of it (another instance, or by hand).
    await t.database.db.update(users).set({ firstName: 'Janet' }).where(eq(users.id, patient.id));
    const watch = watchFilingStatements(t);
    try {
      const refused = await stowRequest(t.app, physician.token, [hostileFile({ studyUid }).bytes], query);
      expect(refused.statusCode).toBe(409);
      expect(refused.json()).toMatchObject({
        msg: STUDY_MESSAGES.patientMismatch,
        found: [expect.objectContaining({ name: 'Doe^Jane', files: 1 })],
      });
      // Tried in one statement, refused there, then read afresh and refused by the guard.
      expect(watch.since()).toEqual(['file_known_study_instances', 'filing_state']);
      const confirmed = await stowRequest(
        t.app,
        physician.token,
        [files[2]!.bytes],
        `${query}&confirm_patient_mismatch=true`,
      );
      expect(confirmed.statusCode).toBe(200);
      expect(watch.since()).toEqual(['filing_state', 'file_study_instances']);
    } finally {
      watch.stop();
    }
    const [study] = await t.database.db.select().from(studies).where(eq(studies.studyInstanceUid, studyUid));
    expect(study!.instanceCount).toBe(3);
    const [item] = await t.database.db.select().from(archiveItems).where(eq(archiveItems.id, study!.itemId));
    expect(item!.size).toBe(files.reduce((total, file) => total + file.bytes.length, 0));
  });

  it('files a study again the long way after it was removed, as the same new study', async () => {
    const { physician, patient } = await physicianWithPatient(t, { patient: JANE });
    const query = `?patient=${patient.id}`;
    const studyUid = newUid();
    expect(
      (await stowRequest(t.app, physician.token, [hostileFile({ studyUid }).bytes], query)).statusCode,
    ).toBe(200);
    expect(
      (await stowRequest(t.app, physician.token, [hostileFile({ studyUid }).bytes], query)).statusCode,
    ).toBe(200);
    const [study] = await t.database.db.select().from(studies).where(eq(studies.studyInstanceUid, studyUid));
    await t.database.db.delete(archiveItems).where(eq(archiveItems.id, study!.itemId));
    const watch = watchFilingStatements(t);
    try {
      const again = await stowRequest(t.app, physician.token, [hostileFile({ studyUid }).bytes], query);
      expect(again.statusCode).toBe(200);
      // The study it knew is no longer one the physician may add to: read afresh, not refused.
      expect(watch.since()).toEqual(['filing_state']);
    } finally {
      watch.stop();
    }
    const [refiled] = await t.database.db
      .select()
      .from(studies)
      .where(eq(studies.studyInstanceUid, studyUid));
    expect(refiled).toMatchObject({ itemId: study!.itemId, instanceCount: 1 });
  });
});

describe('STOW-RS into a known study, at the storage quota', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ STORAGE_QUOTA_GB: String((FILE_BYTES * 2.5) / 1024 ** 3) }, { proxied: false });
  });
  afterAll(() => t.close());

  it('refuses what the quota cannot hold exactly as the long way does, keeping what was filed', async () => {
    const { physician, patient } = await physicianWithPatient(t, { patient: JANE });
    const query = `?patient=${patient.id}`;
    const studyUid = newUid();
    for (let instance = 0; instance < 2; instance += 1) {
      expect(
        (await stowRequest(t.app, physician.token, [hostileFile({ studyUid }).bytes], query)).statusCode,
      ).toBe(200);
    }
    const watch = watchFilingStatements(t);
    try {
      const beyond = await stowRequest(t.app, physician.token, [hostileFile({ studyUid }).bytes], query);
      expect(beyond.statusCode).toBe(409);
      expect(stowFailureReasons(beyond.json())).toEqual([0xa700]);
      expect(watch.since()).toEqual(['file_known_study_instances', 'filing_state', 'file_study_instances']);
      await t.database.db
        .update(archiveItems)
        .set({ size: t.config.uploads.storageQuotaBytes })
        .where(eq(archiveItems.uploaderId, physician.id));
      const full = await stowRequest(t.app, physician.token, [hostileFile({ studyUid }).bytes], query);
      expect(full.statusCode).toBe(413);
      expect(full.json()).toEqual(ERROR_BODIES.storageFull);
    } finally {
      watch.stop();
    }
    const [study] = await t.database.db.select().from(studies).where(eq(studies.studyInstanceUid, studyUid));
    expect(study!.instanceCount).toBe(2);
  });
});
