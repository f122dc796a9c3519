import { NOTIFICATIONS_MAX, type Notification } from '@ra/shared';
import type { AppContext } from '../../context.js';
import type { Queryable } from '../../db/client.js';
import { announceChange } from '../../db/change-feed.js';
import * as repo from './notifications.repository.js';
import type { TaggedNotifications } from './notification-list.js';

export type { TaggedNotifications } from './notification-list.js';

export interface NewNotification {
  userId: string;
  message: string;
  /** A path in the web app the notification links to. */
  to: string | null;
}

/** Writes notifications in the caller's transaction, so they exist exactly when the change does. */
export async function notify(db: Queryable, ...items: NewNotification[]): Promise<void> {
  if (items.length > 0) {
    await repo.insertNotifications(db, items);
    await bumpVersions(db, [...new Set(items.map((item) => item.userId))]);
  }
}

/** Every instance answers the users' next poll from the database again (their ETag changed). */
async function bumpVersions(db: Queryable, userIds: string[]): Promise<void> {
  await repo.bumpVersions(db, userIds);
  await announceChange(db, 'notifications', userIds);
}

function tagOf(version: number | undefined): string {
  return `"n${version ?? 0}"`;
}

/** The ETag of a user's notifications: it changes whenever one is added or marked read. */
export async function notificationsTag(ctx: AppContext, userId: string): Promise<string> {
  return tagOf(await ctx.notificationVersions.getOrLoad(userId, () => repo.findVersion(ctx.db, userId)));
}

/**
 * The user's notifications with the ETag read just before them. A change committed between the
 * two reads leaves the tag older than the list, never newer: the client's next poll then gets the
 * list again rather than a 304 that would hide a notification.
 */
export async function currentNotifications(ctx: AppContext, userId: string): Promise<TaggedNotifications> {
  const tagged = await ctx.notificationLists.getOrLoad(userId, async () => {
    const tag = tagOf(await repo.findVersion(ctx.db, userId));
    return { tag, list: await listNotifications(ctx, userId) };
  });
  return tagged!;
}

export async function listNotifications(ctx: AppContext, userId: string): Promise<Notification[]> {
  const rows = await repo.listNewest(ctx.db, userId, NOTIFICATIONS_MAX);
  return rows.map((row) => ({
    uid: row.id,
    message: row.message,
    to: row.to,
    createdAt: row.createdAt.toISOString(),
    read: row.isRead ? 1 : 0,
  }));
}

export async function markNotificationsRead(
  ctx: AppContext,
  userId: string,
  ids: string[],
): Promise<string[]> {
  const marked = await ctx.db.transaction(async (tx) => {
    const rows = await repo.markRead(tx, userId, ids);
    if (rows.length > 0) {
      await bumpVersions(tx, [userId]);
    }
    return rows;
  });
  if (marked.length > 0) {
    // The caller's next poll may come before the change message: this process forgets now.
    ctx.notificationVersions.delete(userId);
    ctx.notificationLists.delete(userId);
  }
  return marked;
}

export function countUnread(ctx: AppContext, userId: string): Promise<number> {
  return repo.countUnread(ctx.db, userId);
}
