import type { FastifyInstance } from 'fastify';
import type { AppContext } from './context.js';
import type { Database } from './db/client.js';
import type { RequireUser } from './plugins/auth.js';
import { healthRoutes } from './modules/health/health.routes.js';
import { hospitalsRoutes } from './modules/hospitals/hospitals.routes.js';
import { identityRoutes } from './modules/identity/identity.routes.js';
import { usersRoutes } from './modules/users/users.routes.js';
import { profileRoutes } from './modules/users/profile.routes.js';
import { uploadsRoutes } from './modules/uploads/uploads.routes.js';
import { filesRoutes } from './modules/storage/files.routes.js';
import { patientsRoutes } from './modules/patients/patients.routes.js';
import { imagesRoutes } from './modules/archive-items/archive-items.routes.js';
import { annotationsRoutes } from './modules/annotations/annotations.routes.js';
import { reportsRoutes } from './modules/reports/reports.routes.js';
import { notificationsRoutes } from './modules/notifications/notifications.routes.js';
import type { Server } from '@tus/server';
import type Stripe from 'stripe';
import { paymentsRoutes } from './modules/payments/payments.routes.js';
import { worklistRoutes } from './modules/payments/worklist.routes.js';
import { ratingsRoutes } from './modules/ratings/ratings.routes.js';
import { auditRoutes } from './modules/audit/audit.routes.js';
import { studiesRoutes } from './modules/studies/studies.routes.js';
import { incomingRoutes } from './modules/incoming/incoming.routes.js';
import { dicomNodeRoutes } from './modules/dicom-node/dicom-node.routes.js';
import { dicomwebRoutes } from './modules/dicomweb/dicomweb.routes.js';
import { wadoRetrieveRoutes } from './modules/dicomweb/wado-retrieve.routes.js';
import { sharesRoutes } from './modules/shares/shares.routes.js';
import { dicomwebRateLimits } from './plugins/rate-limit.js';
import { downloadsRoutes } from './modules/downloads/downloads.routes.js';

/** What a worker instance (ROLE=worker) answers: its health check alone. */
export function registerHealthRoutes(app: FastifyInstance, database: Database): void {
  healthRoutes(app, () => database.ping());
}

/** Every module's routes, registered in one greppable place. */
export function registerRoutes(
  app: FastifyInstance,
  ctx: AppContext,
  requireUser: RequireUser,
  deps: { database: Database; tus: Server; stripe: Stripe | undefined },
): void {
  healthRoutes(app, () => deps.database.ping());
  identityRoutes(app, ctx, requireUser);
  hospitalsRoutes(app, ctx);
  usersRoutes(app, ctx, requireUser);
  profileRoutes(app, ctx, requireUser);
  uploadsRoutes(app, ctx, requireUser, deps.tus);
  filesRoutes(app, ctx);
  patientsRoutes(app, ctx, requireUser);
  imagesRoutes(app, ctx, requireUser);
  annotationsRoutes(app, ctx, requireUser);
  reportsRoutes(app, ctx, requireUser);
  studiesRoutes(app, ctx, requireUser);
  incomingRoutes(app, ctx, requireUser);
  dicomNodeRoutes(app, ctx, requireUser);
  const dicomwebLimits = dicomwebRateLimits(app, ctx.config);
  dicomwebRoutes(app, ctx, requireUser, dicomwebLimits);
  wadoRetrieveRoutes(app, ctx, requireUser, dicomwebLimits);
  notificationsRoutes(app, ctx, requireUser);
  paymentsRoutes(app, ctx, requireUser, deps.stripe);
  worklistRoutes(app, ctx, requireUser);
  ratingsRoutes(app, ctx, requireUser);
  auditRoutes(app, ctx, requireUser);
  sharesRoutes(app, ctx, requireUser);
  downloadsRoutes(app, ctx, requireUser);
}
