import type { FastifyInstance } from 'fastify';
import type { AppContext } from './context.js';
import type { Database } from './db/client.js';
import type { RequireUser } from './plugins/auth.js';
import { healthRoutes } from './modules/health/health.routes.js';
import { hospitalsRoutes } from './modules/hospitals/hospitals.routes.js';
import { identityRoutes } from './modules/identity/identity.routes.js';
import { usersRoutes } from './modules/users/users.routes.js';

/** Every module's routes, registered in one greppable place. */
export function registerRoutes(
  app: FastifyInstance,
  ctx: AppContext,
  requireUser: RequireUser,
  database: Database,
): void {
  healthRoutes(app, () => database.ping());
  identityRoutes(app, ctx);
  hospitalsRoutes(app, ctx);
  usersRoutes(app, ctx, requireUser);
}
