import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/test-app.js';
import { auditLog } from '../../db/schema/index.js';
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

  it('flushes buffered reads on close', async () => {
    t.app.ctx.auditor.record({
      actorId: null,
      patientId: null,
      action: 'read',
      recordType: 'image-list',
      recordId: 'buffered',
      ip: null,
    });
    await t.app.ctx.auditor.close();
    const rows = await t.database.db.select().from(auditLog);
    expect(rows.map((row) => row.recordId)).toContain('buffered');
  });
});
