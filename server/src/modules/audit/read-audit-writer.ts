import type { Queryable } from '../../db/client.js';
import { GroupCommit } from '../../lib/group-commit.js';
import { appendAuditRows } from './audit.repository.js';
import type { AuditEntry } from './audit-entry.js';

/**
 * How long a read recorded by this process stands for the same read again: the same person
 * reading the same record from the same address. A viewer asks for an image's frames one request
 * at a time, hundreds per study; the log keeps one row per minute of that reading, not one per frame.
 */
export const REPEATED_READ_WINDOW_MS = 60_000;
/** Repeated reads remembered at most; the oldest are forgotten first (and then written again). */
const MAX_REMEMBERED_READS = 10_000;

interface Remembered {
  at: number;
  written: Promise<void>;
}

const keyOf = (entry: AuditEntry) =>
  [entry.actorId, entry.patientId, entry.action, entry.recordType, entry.recordId, entry.ip].join('\u0000');

/**
 * The writer of read audit rows. Concurrent requests' rows share one INSERT (lib/group-commit.ts);
 * every caller's promise settles once its rows, or the identical rows that stand for them, are
 * committed, so a read is never answered before it is on record.
 */
export class ReadAuditWriter {
  private readonly rows: GroupCommit<AuditEntry>;
  /** Rows written or being written lately, oldest first. */
  private readonly recent = new Map<string, Remembered>();

  constructor(
    db: Queryable,
    private readonly now: () => number = Date.now,
  ) {
    this.rows = new GroupCommit((rows) => appendAuditRows(db, rows));
  }

  /** Every row written. */
  write(entries: AuditEntry[]): Promise<void> {
    return this.rows.write(entries);
  }

  /**
   * Rows written unless an identical one was written, or is being written, in the last
   * REPEATED_READ_WINDOW_MS: then the caller waits for that one. A failed write is forgotten.
   */
  async writeUnlessRepeated(entries: AuditEntry[]): Promise<void> {
    const now = this.now();
    this.forgetBefore(now - REPEATED_READ_WINDOW_MS);
    const waits: Promise<void>[] = [];
    const fresh = new Map<string, AuditEntry>();
    for (const entry of entries) {
      const key = keyOf(entry);
      const known = this.recent.get(key);
      if (known) {
        waits.push(known.written);
      } else {
        fresh.set(key, entry);
      }
    }
    if (fresh.size > 0) {
      const written = this.rows.write([...fresh.values()]);
      const remembered = { at: now, written };
      for (const key of fresh.keys()) {
        this.recent.set(key, remembered);
      }
      written.catch(() => {
        for (const key of fresh.keys()) {
          if (this.recent.get(key) === remembered) {
            this.recent.delete(key);
          }
        }
      });
      waits.push(written);
      while (this.recent.size > MAX_REMEMBERED_READS) {
        this.recent.delete(this.recent.keys().next().value!);
      }
    }
    await Promise.all(waits);
  }

  private forgetBefore(time: number) {
    for (const [key, remembered] of this.recent) {
      if (remembered.at > time) {
        return;
      }
      this.recent.delete(key);
    }
  }
}
