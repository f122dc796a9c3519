import { sql } from 'drizzle-orm';
import type { Database, Queryable } from './client.js';

/**
 * What this process keeps in memory that another process (another instance, the admin CLI) can
 * change. Each topic is a PostgreSQL NOTIFY channel; a message lists the changed keys, or none
 * when everything of the topic changed.
 */
export const CHANGE_TOPICS = ['hospitals', 'sessions', 'notifications'] as const;
export type ChangeTopic = (typeof CHANGE_TOPICS)[number];

const CHANNEL_PREFIX = 'ra_changed_';
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

export interface ChangeListener {
  onMessage(channel: string, payload: string): void;
  /** The connection that listens was lost: messages may be missed until `onRestored`. */
  onLost(): void;
  onRestored(): void;
}

/**
 * Delivers change messages to this process's caches. While the listening connection is down the
 * feed is not live: caches then neither serve nor keep entries, since a change could go unheard.
 */
export class ChangeFeed {
  private readonly handlers = new Map<ChangeTopic, Set<ChangeHandler>>();
  private live = false;
  private stop: (() => Promise<void>) | undefined;

  get isLive(): boolean {
    return this.live;
  }

  on(topic: ChangeTopic, handler: ChangeHandler): void {
    const set = this.handlers.get(topic) ?? new Set();
    set.add(handler);
    this.handlers.set(topic, set);
  }

  async start(database: Database): Promise<void> {
    this.stop = await database.listen(CHANGE_TOPICS.map(channelOf), {
      onMessage: (channel, payload) => {
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
