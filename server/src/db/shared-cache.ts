import { LRUCache } from 'lru-cache';
import type { ChangeFeed, ChangeTopic } from './change-feed.js';

/**
 * An in-process cache of database reads that every process can invalidate through the change
 * feed (`announceChange`), so an entry never outlives a committed change by more than the
 * message's delivery. The TTL is only a safety net.
 */
/** Separates a grouped key's group from the rest (`SharedCache`'s `grouped` option). */
const GROUP_END = '|';

/** The key of an entry of `group` in a grouped cache; `parts` tell the group's entries apart. */
export function groupedKey(group: string, ...parts: (string | number | boolean)[]): string {
  // Each part escaped: parts come from requests (a path's id, a cursor), and one holding the
  // separator must never make the key of another entry.
  return [group, ...parts].map((part) => encodeURIComponent(String(part))).join(GROUP_END);
}

/** Entries kept when the caller names no bound. */
const DEFAULT_MAX_ENTRIES = 10_000;

export class SharedCache<V extends NonNullable<unknown>> {
  /** Entries expire after `ttlMs`; past `maxEntries` the least recently used one goes. */
  private readonly entries: LRUCache<string, V>;
  /** Bumped by every invalidation, so a load that raced one does not store what it read. */
  private generation = 0;

  constructor(
    private readonly feed: ChangeFeed,
    /** The topic whose messages drop entries; several when entries read what each announces. */
    topic: ChangeTopic | readonly ChangeTopic[],
    /**
     * `grouped`: keys are made by `groupedKey`, and a change message names groups: it drops
     * every entry of each (a patient's every cached page, for instance).
     */
    options: { ttlMs: number; maxEntries?: number; grouped?: boolean },
  ) {
    this.entries = new LRUCache({ ttl: options.ttlMs, max: options.maxEntries ?? DEFAULT_MAX_ENTRIES });
    const drop = (keys: string[] | null) => {
      if (keys === null) {
        this.clear();
      } else if (options.grouped) {
        const prefixes = keys.map((key) => `${encodeURIComponent(key)}${GROUP_END}`);
        this.generation += 1;
        for (const key of [...this.entries.keys()]) {
          if (prefixes.some((prefix) => key.startsWith(prefix))) {
            this.entries.delete(key);
          }
        }
      } else {
        keys.forEach((key) => this.delete(key));
      }
    };
    for (const one of typeof topic === 'string' ? [topic] : topic) {
      feed.on(one, drop);
    }
  }

  async getOrLoad(key: string, load: () => Promise<V | undefined>): Promise<V | undefined> {
    if (!this.feed.isLive) {
      return load();
    }
    const cached = this.entries.get(key);
    if (cached !== undefined) {
      return cached;
    }
    const generation = this.generation;
    const value = await load();
    if (value !== undefined && generation === this.generation && this.feed.isLive) {
      this.entries.set(key, value);
    }
    return value;
  }

  /** Drops the entry in this process at once (other processes learn it from the feed). */
  delete(key: string): void {
    this.generation += 1;
    this.entries.delete(key);
  }

  clear(): void {
    this.generation += 1;
    this.entries.clear();
  }
}
