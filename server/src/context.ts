import type { FastifyBaseLogger } from 'fastify';
import type { Config } from './config.js';
import type { Db } from './db/client.js';
import type { Mailer } from './lib/mailer.js';
import type { SigningKeys } from './modules/identity/signing-keys.js';

/** What services need from the outside world; built once in buildApp. */
export interface AppContext {
  config: Config;
  db: Db;
  mailer: Mailer;
  keys: SigningKeys;
  log: FastifyBaseLogger;
}

declare module 'fastify' {
  interface FastifyInstance {
    ctx: AppContext;
  }
}
