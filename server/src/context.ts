import type { FastifyBaseLogger } from 'fastify';
import type { ImagePage } from '@ra/shared';
import type { Config } from './config.js';
import type { Db } from './db/client.js';
import type { Mailer } from './lib/mailer.js';
import type { SharedCache } from './db/shared-cache.js';
import type { ReadAuditWriter } from './modules/audit/read-audit-writer.js';
import type { JobSender } from './jobs/job-queue.js';
import type { Storage } from './modules/storage/storage.js';
import type { UploadFiles } from './modules/uploads/upload-files.js';
import type { DecodePool } from './modules/dicom/decode-pool.js';
import type { InstanceRowsCache } from './modules/dicomweb/instance-rows-cache.js';
import type { PaymentProvider } from './modules/payments/payment-provider.js';
import type { SessionActor } from './lib/actor.js';
import type { SigningKeys } from './modules/identity/signing-keys.js';
import type { TaggedHospitalList } from './modules/hospitals/hospitals.service.js';
import type { TaggedNotifications } from './modules/notifications/notification-list.js';

/** User id → the password hash that still verifies the published demo password (identity/demo-exposure.ts). */
export type RefusedDemoSignIns = Map<string, string>;

/**
 * What services need from the outside world; built once in buildApp. It takes types only, each
 * from the file that declares it, none of which imports this file back (lint checks both).
 */
export interface AppContext {
  config: Config;
  db: Db;
  mailer: Mailer;
  keys: SigningKeys;
  log: FastifyBaseLogger;
  /** Live sessions by id, for a few seconds; a revocation on any instance drops its entry at once. */
  sessionCache: SharedCache<SessionActor>;
  /** The hospital list (key `all`), until any process adds a hospital. */
  hospitalCache: SharedCache<TaggedHospitalList>;
  /** Each user's notifications version (the polling ETag), until any process changes it. */
  notificationVersions: SharedCache<number>;
  /** The newest notifications of the users polling most recently, until any process changes them. */
  notificationLists: SharedCache<TaggedNotifications>;
  /**
   * Pages of patients' image lists as one viewer was shown them (with URLs signed for them), until
   * any process changes that patient's archive (database triggers announce it) or the URLs'
   * expiry step passes.
   */
  imagePages: SharedCache<ImagePage>;
  /**
   * Decisions of the access module that a request asks again and again (whether a user may store
   * for a patient, or add to a study of theirs), grouped by patient, until any process changes
   * what they read (database triggers announce it on the change feed's "access" topic).
   */
  accessDecisions: SharedCache<boolean>;
  /** One instance's rows as each reader may see them, for reads repeated frame by frame (dicomweb). */
  instanceRows: InstanceRowsCache;
  storage: Storage;
  /**
   * This disk's folder for uploads: where tus keeps them with STORAGE=local, and in every mode the
   * folder beside which working folders are made (studies/work-dirs.ts) and bucket copies written.
   */
  tusDir: string;
  /** The uploads tus keeps until they are claimed, on this disk or in the bucket. */
  uploadFiles: UploadFiles;
  /** Signs the expiring URLs of stored files. */
  fileUrlSecret: string;
  jobs: JobSender;
  /** The sandbox, or Stripe when STRIPE_SECRET_KEY is set. */
  payments: PaymentProvider;
  /** Writes read audit rows; concurrent requests share statements (audit/read-audit-writer.ts). */
  readAudit: ReadAuditWriter;
  /** Demo accounts whose published password may not sign in here (the server listens beyond loopback). */
  refusedDemoSignIns: RefusedDemoSignIns;
  /** Threads that parse, decode and render stored DICOM files, within time and memory bounds. */
  decoder: DecodePool;
}

declare module 'fastify' {
  interface FastifyInstance {
    ctx: AppContext;
  }
}
