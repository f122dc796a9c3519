import type { Queryable } from '../../db/client.js';
import { notifications } from '../../db/schema/index.js';

export interface NewNotification {
  userId: string;
  message: string;
  /** A path in the web app the notification links to. */
  to: string | null;
}

/** Writes notifications in the caller's transaction, so they exist exactly when the change does. */
export async function notify(db: Queryable, ...items: NewNotification[]): Promise<void> {
  if (items.length > 0) {
    await db.insert(notifications).values(items);
  }
}
