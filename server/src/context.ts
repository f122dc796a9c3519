import type { FastifyBaseLogger } from 'fastify';
import type { Config } from './config.js';
import type { Db } from './db/client.js';
import type { Mailer } from './lib/mailer.js';
import type { TtlCache } from './lib/ttl-cache.js';
import type { Hospital } from '@ra/shared';
import type { JobSender } from './jobs/job-queue.js';
import type { Storage } from './modules/storage/storage.js';
import type { PaymentProvider } from './modules/payments/payment-provider.js';
import type { RefusedDemoSignIns } from './seed/demo-exposure.js';
import type { SessionUser } from './modules/identity/identity.repository.js';
import type { SigningKeys } from './modules/identity/signing-keys.js';

/** What services need from the outside world; built once in buildApp. */
export interface AppContext {
  config: Config;
  db: Db;
  mailer: Mailer;
  keys: SigningKeys;
  log: FastifyBaseLogger;
  /** Live sessions by id, for a few seconds; revocations here delete their entry at once. */
  sessionCache: TtlCache<string, SessionUser>;
  /** The hospital list changes rarely; it is read from the database at most every few seconds. */
  hospitalCache: TtlCache<'all', Hospital[]>;
  storage: Storage;
  /** Where tus keeps uploads until they are claimed. */
  tusDir: string;
  /** Signs the expiring URLs of stored files. */
  fileUrlSecret: string;
  jobs: JobSender;
  /** The sandbox, or Stripe when STRIPE_SECRET_KEY is set. */
  payments: PaymentProvider;
  /** Demo accounts whose published password may not sign in here (the server listens beyond loopback). */
  refusedDemoSignIns: RefusedDemoSignIns;
}

declare module 'fastify' {
  interface FastifyInstance {
    ctx: AppContext;
  }
}
