import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { createTestApp, type TestApp } from '../../../test/test-app.js';
import { auditLog } from '../../db/schema/audit.js';
import type { AuditEntry } from './audit-entry.js';
import { ReadAuditWriter, REPEATED_READ_WINDOW_MS } from './read-audit-writer.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const read = (recordId: string, changes: Partial<AuditEntry> = {}): AuditEntry => ({
  actorId: null,
  patientId: null,
  action: 'download',
  recordType: 'file',
  recordId,
  ip: '192.0.2.7',
  ...changes,
});

const rowsOf = (recordId: string) =>
  t.database.db.select().from(auditLog).where(eq(auditLog.recordId, recordId));

describe('read audit rows of repeated reads', () => {
  it('writes a read repeated within the window once, and again once the window has passed', async () => {
    let now = 1_000_000;
    const writer = new ReadAuditWriter(t.database.db, () => now);
    await Promise.all([
      writer.writeUnlessRepeated([read('studies/a')]),
      writer.writeUnlessRepeated([read('studies/a')]),
    ]);
    now += REPEATED_READ_WINDOW_MS - 1;
    await writer.writeUnlessRepeated([read('studies/a')]);
    expect(await rowsOf('studies/a')).toHaveLength(1);
    now += 1;
    await writer.writeUnlessRepeated([read('studies/a')]);
    expect(await rowsOf('studies/a')).toHaveLength(2);
  });

  it('writes a read that differs in anything: the record, the address, the action', async () => {
    const writer = new ReadAuditWriter(t.database.db);
    await writer.writeUnlessRepeated([read('studies/b')]);
    await writer.writeUnlessRepeated([read('studies/b', { ip: '192.0.2.8' })]);
    await writer.writeUnlessRepeated([read('studies/b', { action: 'read', recordType: 'image' })]);
    await writer.writeUnlessRepeated([read('studies/b'), read('studies/c')]);
    expect(await rowsOf('studies/b')).toHaveLength(3);
    expect(await rowsOf('studies/c')).toHaveLength(1);
  });

  it('writes every row through `write`, repeated or not', async () => {
    const writer = new ReadAuditWriter(t.database.db);
    await writer.write([read('studies/d')]);
    await writer.write([read('studies/d')]);
    expect(await rowsOf('studies/d')).toHaveLength(2);
  });

  it('fails the reads whose row could not be written, and writes the next one anew', async () => {
    const writer = new ReadAuditWriter(t.database.db);
    // An actor id that is no uuid: the row cannot be written.
    const broken = read('studies/e', { actorId: 'not-a-uuid' });
    const [first, second] = await Promise.allSettled([
      writer.writeUnlessRepeated([broken]),
      writer.writeUnlessRepeated([broken]),
    ]);
    expect(first.status).toBe('rejected');
    expect(second.status).toBe('rejected');
    await expect(writer.writeUnlessRepeated([broken])).rejects.toThrow();
    await writer.writeUnlessRepeated([read('studies/e')]);
    expect(await rowsOf('studies/e')).toHaveLength(1);
  });
});
