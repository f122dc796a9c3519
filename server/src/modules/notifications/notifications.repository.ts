import { and, count, desc, eq, inArray, sql } from 'drizzle-orm';
import type { Queryable } from '../../db/client.js';
import { notifications } from '../../db/schema/notifications.js';
import { users } from '../../db/schema/users.js';

export async function insertNotifications(db: Queryable, items: (typeof notifications.$inferInsert)[]) {
  await db.insert(notifications).values(items);
}

/** Marks the users' notifications as changed (the polling ETag). */
export async function bumpVersions(db: Queryable, userIds: string[]) {
  await db
    .update(users)
    .set({ notificationsVersion: sql`${users.notificationsVersion} + 1` })
    .where(inArray(users.id, userIds));
}

export async function findVersion(db: Queryable, userId: string): Promise<number> {
  const [row] = await db
    .select({ version: users.notificationsVersion })
    .from(users)
    .where(eq(users.id, userId));
  return row?.version ?? 0;
}

export function listNewest(db: Queryable, userId: string, limit: number) {
  return db
    .select()
    .from(notifications)
    .where(eq(notifications.userId, userId))
    .orderBy(desc(notifications.createdAt), desc(notifications.id))
    .limit(limit);
}

/** Marks read only the ids that belong to `userId`; returns those it marked. */
export async function markRead(db: Queryable, userId: string, ids: string[]) {
  if (ids.length === 0) {
    return [];
  }
  const rows = await db
    .update(notifications)
    .set({ isRead: true })
    .where(and(eq(notifications.userId, userId), inArray(notifications.id, ids)))
    .returning({ id: notifications.id });
  return rows.map((row) => row.id);
}

export async function countUnread(db: Queryable, userId: string): Promise<number> {
  const [row] = await db
    .select({ unread: count() })
    .from(notifications)
    .where(and(eq(notifications.userId, userId), eq(notifications.isRead, false)));
  return row?.unread ?? 0;
}
