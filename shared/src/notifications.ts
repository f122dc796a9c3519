import { z } from 'zod';

/** The web app polls this often while signed in and the tab is visible (docs/api.md §18.1). */
export const NOTIFICATION_POLL_MS = 20_000;
export const NOTIFICATIONS_MAX = 100;

export const notificationSchema = z.object({
  uid: z.uuid(),
  message: z.string(),
  to: z.string().nullable(),
  createdAt: z.string(),
  read: z.union([z.literal(0), z.literal(1)]),
});
export type Notification = z.infer<typeof notificationSchema>;

export const notificationListSchema = z.array(notificationSchema);

export const markReadBodySchema = z.object({
  read: z
    .array(z.uuid({ error: 'Each notification id must be a uid.' }), {
      error: 'read must be a list of notification ids.',
    })
    .max(NOTIFICATIONS_MAX, { error: 'At most 100 notifications at a time.' }),
});
export type MarkReadBody = z.input<typeof markReadBodySchema>;

export const markReadResponseSchema = z.object({ success: z.literal(true), read: z.array(z.uuid()) });
export const unreadCountSchema = z.object({ unread: z.number().int() });
