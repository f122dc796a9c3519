import crypto from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { Database, Queryable } from './client.js';

export type { ChangeListener } from './client.js';

/**
 * What this process keeps in memory that another process (another instance, the admin CLI) can
 * change. Each topic is a PostgreSQL NOTIFY channel; a message lists the changed keys, or none
 * when everything of the topic changed.
 */
/** `jobs`: queues that have new work (job-queue.ts), announced by sends inside transactions. */
export const CHANGE_TOPICS = ['hospitals', 'sessions', 'notifications', 'archive', 'access', 'jobs'] as const;
export type ChangeTopic = (typeof CHANGE_TOPICS)[number];

const CHANNEL_PREFIX = 'ra_changed_';
/** Not a topic: each process hears its own markers there (`ChangeFeed.catchUp`). */
const CATCH_UP_CHANNEL = 'ra_feed_marker';
/** Past this a marker is taken as lost: the caches are dropped rather than trusted. */
const CATCH_UP_TIMEOUT_MS = 2_000;
/** NOTIFY payloads must stay under 8000 bytes; longer key lists go in several messages. */
const MAX_PAYLOAD = 7_000;

export function channelOf(topic: ChangeTopic): string {
  return `${CHANNEL_PREFIX}${topic}`;
}

function topicOf(channel: string): ChangeTopic | undefined {
  const topic = channel.slice(CHANNEL_PREFIX.length);
  return (CHANGE_TOPICS as readonly string[]).includes(topic) ? (topic as ChangeTopic) : undefined;
}

function payloads(keys: string[]): string[] {
  if (keys.length === 0) {
    return [''];
  }
  const chunks: string[] = [];
  let current = '';
  for (const key of keys) {
    if (current.length > 0 && current.length + key.length + 1 > MAX_PAYLOAD) {
      chunks.push(current);
      current = '';
    }
    current = current.length > 0 ? `${current},${key}` : key;
  }
  chunks.push(current);
  return chunks;
}

/**
 * Tells every process, this one included, that `keys` of `topic` changed (all of it when empty).
 * Inside a transaction the message is delivered when it commits, and not at all if it rolls back.
 */
export async function announceChange(db: Queryable, topic: ChangeTopic, keys: string[] = []): Promise<void> {
  for (const payload of payloads(keys)) {
    await db.execute(sql`select pg_notify(${channelOf(topic)}, ${payload})`);
  }
}

/** `null` means every key of the topic. */
export type ChangeHandler = (keys: string[] | null) => void;

/**
 * Delivers change messages to this process's caches. While the listening connection is down the
 * feed is not live: caches then neither serve nor keep entries, since a change could go unheard.
 */
export class ChangeFeed {
  private readonly handlers = new Map<ChangeTopic, Set<ChangeHandler>>();
  private live = false;
  private stop: (() => Promise<void>) | undefined;
  /**
   * The embedded database (PGlite) runs in this process on one connection and hands its
   * notifications to the listeners before the statement that commits them resolves: whatever has
   * committed has been heard, and `catchUp` has nothing to wait for (change-feed.test.ts checks it).
   */
  private hearsOnCommit = false;
  /** Markers sent by `catchUp` that have not come back yet. */
  private readonly markers = new Map<string, () => void>();

  get isLive(): boolean {
    return this.live;
  }

  on(topic: ChangeTopic, handler: ChangeHandler): void {
    const set = this.handlers.get(topic) ?? new Set();
    set.add(handler);
    this.handlers.set(topic, set);
  }

  async start(database: Database): Promise<void> {
    this.hearsOnCommit = database.kind === 'pglite';
    this.stop = await database.listen([...CHANGE_TOPICS.map(channelOf), CATCH_UP_CHANNEL], {
      onMessage: (channel, payload) => {
        if (channel === CATCH_UP_CHANNEL) {
          this.markers.get(payload)?.();
          return;
        }
        const topic = topicOf(channel);
        if (topic) {
          this.emit(topic, payload === '' ? null : payload.split(','));
        }
      },
      onLost: () => {
        this.live = false;
        this.emitEverything();
      },
      onRestored: () => {
        this.emitEverything();
        this.live = true;
      },
    });
    this.live = true;
  }

  /**
   * Resolves once this process has heard every change committed before the call. PostgreSQL
   * delivers notifications in commit order, so a marker sent now comes back after all of them.
   * A request that wrote waits for this before answering: a client that reads next never meets
   * a cache of this process that has not yet heard of its write.
   */
  async catchUp(db: Queryable): Promise<void> {
    if (!this.live || this.hearsOnCommit) {
      return;
    }
    const marker = crypto.randomUUID();
    let timer: NodeJS.Timeout | undefined;
    const heard = new Promise<boolean>((resolve) => {
      this.markers.set(marker, () => resolve(true));
      timer = setTimeout(() => resolve(false), CATCH_UP_TIMEOUT_MS);
    });
    try {
      await db.execute(sql`select pg_notify(${CATCH_UP_CHANNEL}, ${marker})`);
      if (!(await heard)) {
        this.emitEverything();
      }
    } catch {
      // The write itself is done: what could not be confirmed is dropped, never served stale.
      this.emitEverything();
    } finally {
      clearTimeout(timer);
      this.markers.delete(marker);
    }
  }

  async close(): Promise<void> {
    this.live = false;
    await this.stop?.();
  }

  private emit(topic: ChangeTopic, keys: string[] | null): void {
    for (const handler of this.handlers.get(topic) ?? []) {
      handler(keys);
    }
  }

  private emitEverything(): void {
    for (const topic of CHANGE_TOPICS) {
      this.emit(topic, null);
    }
  }
}
