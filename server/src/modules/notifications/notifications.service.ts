import { NOTIFICATIONS_MAX, type Notification } from '@ra/shared';
import type { AppContext } from '../../context.js';
import type { Queryable } from '../../db/client.js';
import * as repo from './notifications.repository.js';

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
    await repo.bumpVersions(db, [...new Set(items.map((item) => item.userId))]);
  }
}

/** The ETag of a user's notifications: it changes whenever one is added or marked read. */
export async function notificationsTag(ctx: AppContext, userId: string): Promise<string> {
  return `"n${await repo.findVersion(ctx.db, userId)}"`;
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
  return ctx.db.transaction(async (tx) => {
    const marked = await repo.markRead(tx, userId, ids);
    if (marked.length > 0) {
      await repo.bumpVersions(tx, [userId]);
    }
    return marked;
  });
}

export function countUnread(ctx: AppContext, userId: string): Promise<number> {
  return repo.countUnread(ctx.db, userId);
}
