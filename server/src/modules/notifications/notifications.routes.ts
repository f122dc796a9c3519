import type { FastifyInstance, FastifyReply } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  markReadBodySchema,
  markReadResponseSchema,
  notificationListSchema,
  unreadCountSchema,
} from '@ra/shared';
import type { AppContext } from '../../context.js';
import { currentUser, type RequireUser } from '../../plugins/auth.js';
import * as notifications from './notifications.service.js';
import { replyIfNotModified } from '../../lib/not-modified.js';
import { emptyResponse } from '../../plugins/api-docs.js';

const TAGS = ['Notifications'];

export function notificationsRoutes(app: FastifyInstance, ctx: AppContext, requireUser: RequireUser): void {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get(
    '/api/notification/polling',
    {
      schema: {
        summary: "The caller's notifications, newest first",
        description: 'Not user activity: polling keeps no session alive.',
        tags: TAGS,
        response: {
          200: notificationListSchema,
          204: emptyResponse('No notifications.'),
          304: emptyResponse('Nothing changed since the ETag sent in If-None-Match.'),
        },
      },
      config: { isBackground: true },
      preHandler: requireUser(),
    },
    async (request, typedReply) => {
      // 204 and 304 carry no body: sent on the untyped reply, like the ETag checks' answers.
      const reply = typedReply as FastifyReply;
      const user = currentUser(request);
      // Messages name patients, so no copy is kept; a client that sends the ETag back still gets 304.
      void reply.header('Cache-Control', 'no-store');
      // The version alone (kept in memory until it changes) decides whether anything changed.
      const tag = await notifications.notificationsTag(ctx, user.id);
      const notModified = replyIfNotModified(request, reply, tag);
      if (notModified) {
        return notModified;
      }
      const current = await notifications.currentNotifications(ctx, user.id);
      void reply.header('ETag', current.tag);
      return current.list.length === 0 ? reply.status(204).send() : current.list;
    },
  );

  r.put(
    '/api/notification/read',
    {
      schema: {
        summary: 'Mark notifications as read',
        tags: TAGS,
        body: markReadBodySchema,
        response: { 200: markReadResponseSchema },
      },
      preHandler: requireUser(),
    },
    async (request) => ({
      success: true as const,
      read: await notifications.markNotificationsRead(ctx, currentUser(request).id, request.body.read),
    }),
  );

  r.get(
    '/api/notification/unread-count',
    {
      schema: {
        summary: "How many of the caller's notifications are unread",
        description: 'Not user activity: it keeps no session alive.',
        tags: TAGS,
        response: { 200: unreadCountSchema },
      },
      config: { isBackground: true },
      preHandler: requireUser(),
    },
    async (request) => ({ unread: await notifications.countUnread(ctx, currentUser(request).id) }),
  );
}
