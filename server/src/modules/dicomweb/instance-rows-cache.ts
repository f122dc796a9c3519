import { LRUCache } from 'lru-cache';
import type { ChangeFeed } from '../../db/change-feed.js';
import { groupedKey, SharedCache } from '../../db/shared-cache.js';
import type { InstanceRow } from './dicomweb.repository.js';

/** How long a row may serve at most; the change feed drops it as soon as anything it read changes. */
const ROWS_MS = 60_000;
/** Instances kept: a few hundred readers paging through a many-frame instance each. */
const MAX_INSTANCES = 2_000;

/**
 * The stored rows of one instance as one reader may see them, for reads that come again and again
 * for the same instance: a viewer asks for each of a 400-frame instance's frames on its own, and
 * finding the instance cost more than reading the frame (about half of each request).
 *
 * An entry is grouped by its patient and dropped when any process changes that patient's archive
 * or what anyone may read of it (the change feed's "archive" and "access" topics, which database
 * triggers announce), as the access decisions are. The patient is known only once the rows are
 * read, so a reader's first read of an instance only learns it (the hint); the next read loads the
 * rows again under that patient's group and keeps them. Rows of no patient (a physician's Incoming
 * studies) or of several are never kept.
 */
export class InstanceRowsCache {
  private readonly rows: SharedCache<InstanceRow[]>;
  /** The patient whose group holds a reader's rows of an instance. */
  private readonly patientOf = new LRUCache<string, string>({ max: MAX_INSTANCES });

  constructor(feed: ChangeFeed) {
    this.rows = new SharedCache(feed, ['archive', 'access'], {
      ttlMs: ROWS_MS,
      maxEntries: MAX_INSTANCES,
      grouped: true,
    });
  }

  /**
   * The rows `load` reads for this reader and path (`readerKey` names everything the reader's
   * filter depends on), from the cache when they are there.
   */
  async getOrLoad(
    readerKey: string,
    path: string,
    load: () => Promise<InstanceRow[]>,
  ): Promise<InstanceRow[]> {
    const key = groupedKey(readerKey, path);
    const patient = this.patientOf.get(key);
    let loaded: InstanceRow[] | undefined;
    const loadOnce = async () => {
      loaded = await load();
      const only = onePatientOf(loaded);
      if (only) {
        this.patientOf.set(key, only);
      }
      return only === patient ? loaded : undefined;
    };
    if (patient === undefined) {
      await loadOnce();
      return loaded!;
    }
    return (await this.rows.getOrLoad(groupedKey(patient, readerKey, path), loadOnce)) ?? loaded!;
  }
}

function onePatientOf(rows: InstanceRow[]): string | undefined {
  const patients = new Set(rows.map((row) => row.patientId));
  const [only] = patients;
  return patients.size === 1 && only ? only.toLowerCase() : undefined;
}
