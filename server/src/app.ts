import crypto from 'node:crypto';
import path from 'node:path';
import Fastify, { type FastifyInstance, type FastifyServerOptions, type RouteOptions } from 'fastify';
import cookie from '@fastify/cookie';
import { validatorCompiler } from 'fastify-type-provider-zod';
import { runsBackgroundWork, servesHttp, type Config } from './config.js';
import type { AppContext } from './context.js';
import type { Database } from './db/client.js';
import { createMailer, createMailTransport } from './lib/mailer.js';
import './lib/sharp-setup.js';
import { ChangeFeed } from './db/change-feed.js';
import { SharedCache } from './db/shared-cache.js';
import { fastifyTrustProxy } from './lib/trust-proxy.js';
import { getOrCreateSecret } from './lib/server-secrets.js';
import { allJobs } from './jobs/index.js';
import { startJobQueue, type JobQueue, type JobSender } from './jobs/job-queue.js';
import { SEND_EMAIL_JOB } from './jobs/send-email.job.js';
import {
  checkBucket,
  createS3Client,
  LocalDiskStorage,
  S3Storage,
  s3ClientConfig,
  type Storage,
} from './modules/storage/index.js';
import { EXPIRY_STEP_SECONDS } from './modules/storage/index.js';
import {
  createTusServer,
  DiskUploadFiles,
  RedisUploadLocker,
  S3UploadFiles,
  UPLOAD_CLAIM_HOURS,
  type UploadFiles,
} from './modules/uploads/index.js';
import { dicomPartReaders, earlyBundleReads } from './modules/studies/index.js';
import { DecodePool } from './modules/dicom/index.js';
import { InstanceRowsCache } from './modules/dicomweb/index.js';
import Stripe from 'stripe';
import { sandboxProvider } from './modules/payments/index.js';
import { stripeProvider } from './modules/payments/index.js';
import { createAuthGuard } from './plugins/auth.js';
import { registerErrorHandler } from './plugins/errors.js';
import { frameworkErrors, registerInputGuards } from './plugins/input-guards.js';
import { serializeError, withoutShareToken } from './lib/log-redaction.js';
import { connectRateLimitRedis, registerRateLimit } from './plugins/rate-limit.js';
import { registerSecurityHeaders } from './plugins/security.js';
import { responseSerializerCompiler } from './plugins/response-serializer.js';
import { OneLinePerRequest } from './plugins/request-log.js';
import { registerCompression } from './plugins/compression.js';
import { registerWebApp } from './plugins/web-app.js';
import { registerOpenApi, serveApiDocs } from './plugins/api-docs.js';
import { SigningKeys } from './modules/identity/index.js';
import { refileLegacyIncoming } from './modules/incoming/index.js';
import { ReadAuditWriter } from './modules/audit/index.js';
import { registerHealthRoutes, registerRoutes } from './routes.js';
import { startDicomNode, type RunningDicomNode } from './modules/dicom-node/index.js';
import { findExposedDemoAccounts } from './modules/identity/index.js';

/**
 * Session entries also carry the user's name and flags, which change without a message; a
 * revocation reaches every instance through the change feed at once.
 */
const SESSION_CACHE_MS = 10_000;
/** Changes arrive through the change feed; the TTL only bounds what a missed message could cost. */
const SHARED_LIST_CACHE_MS = 10 * 60_000;
const NOTIFICATION_VERSIONS_MAX = 100_000;
/** Up to 50 messages each: a few tens of megabytes at most. */
const NOTIFICATION_LISTS_MAX = 2_000;
/** A page's URLs are signed for one expiry step: it is not served past it. */
const IMAGE_PAGES_MS = EXPIRY_STEP_SECONDS * 1000;
/** Up to 50 images each: some tens of megabytes at most. */
const IMAGE_PAGES_MAX = 500;
/**
 * Access decisions (may store for a patient, may add to a study): dropped when any process changes
 * what they read (database triggers announce it); the TTL only bounds what a missed message could cost.
 */
const ACCESS_DECISIONS_MS = 60_000;
const ACCESS_DECISIONS_MAX = 20_000;
const READ_ONLY_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

export interface BuildAppOptions {
  config: Config;
  database: Database;
  /** Fastify logger options; tests pass `false`. */
  logger?: FastifyServerOptions['logger'];
  /** How often idle job workers look for work. */
  jobPollingSeconds?: number;
  /**
   * False: queue jobs but work none (tests stand for an instance that stops before its workers
   * run). Unset: as ROLE says (web instances work none).
   */
  isWorkingJobs?: boolean;
  /** Seconds between looks for due schedules (tests shorten pg-boss's 30). */
  cronSeconds?: number;
  /** Called for every route as it is registered (tests list the routes). */
  onRoute?: (route: RouteOptions) => void;
}

/**
 * Where files and unclaimed uploads live (STORAGE, docs/operations.md): this disk, or one S3 bucket
 * that every instance shares. Either way this disk's upload folder holds working copies.
 */
async function storageFor(
  config: Config,
  fileUrlSecret: string,
): Promise<{ storage: Storage; uploadFiles: UploadFiles }> {
  const tusDir = path.join(config.storageDir, 'uploads');
  const expirationMs = UPLOAD_CLAIM_HOURS * 3600 * 1000;
  if (config.storage.driver === 'local') {
    return {
      storage: new LocalDiskStorage(config.storageDir, fileUrlSecret),
      uploadFiles: new DiskUploadFiles(tusDir, expirationMs),
    };
  }
  const { s3 } = config.storage;
  const client = createS3Client(s3);
  await checkBucket(client, s3);
  return {
    storage: new S3Storage({ client, bucket: s3.bucket, urlSecret: fileUrlSecret }),
    uploadFiles: new S3UploadFiles({
      client,
      clientConfig: { ...s3ClientConfig(s3), bucket: s3.bucket },
      bucket: s3.bucket,
      scratchDir: tusDir,
      expirationMs,
    }),
  };
}

/**
 * JSON lines (docs/operations.md §11), except on a terminal outside production (`npm run dev`),
 * where pino-pretty, a development dependency, prints them for people to read.
 */
function isReadByPeople(config: Config): boolean {
  return config.env !== 'production' && process.stdout.isTTY;
}

/** Never log credentials or query strings (reset links carry tokens there). */
function loggerOptions(config: Config): FastifyServerOptions['logger'] {
  return {
    level: config.logLevel,
    redact: ['req.headers.authorization', 'req.headers.cookie', 'res.headers["set-cookie"]'],
    serializers: {
      err: serializeError,
      req: (req: { id: string; method: string; url: string; ip?: string }) => ({
        id: req.id,
        method: req.method,
        path: withoutShareToken(req.url.split('?')[0]!),
        ip: req.ip,
      }),
    },
    ...(isReadByPeople(config)
      ? {
          transport: {
            target: 'pino-pretty',
            options: { translateTime: 'SYS:HH:MM:ss.l', ignore: 'pid,hostname', singleLine: true },
          },
        }
      : {}),
  };
}

export async function buildApp(options: BuildAppOptions): Promise<FastifyInstance> {
  const { config, database } = options;
  // ROLE (docs/operations.md §16): web answers HTTP only; worker runs jobs, schedules and the DICOM
  // node and answers /api/health only; all does both.
  const isWorker = runsBackgroundWork(config.role);
  const isWeb = servesHttp(config.role);
  const app = Fastify({
    logger: options.logger ?? loggerOptions(config),
    trustProxy: fastifyTrustProxy(config.trustProxy),
    genReqId: () => crypto.randomUUID(),
    logController: new OneLinePerRequest(),
    bodyLimit: 1024 * 1024,
    frameworkErrors,
  });
  if (options.onRoute) {
    app.addHook('onRoute', options.onRoute);
  }
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(responseSerializerCompiler);
  registerErrorHandler(app);
  // Before anything starts: a server that cannot share its rate limits does not start.
  const rateLimitRedis =
    isWeb && config.rateLimit.redisUrl
      ? await connectRateLimitRedis(config.rateLimit.redisUrl, app.log)
      : undefined;

  const mailTransport = createMailTransport({
    smtpUrl: config.smtpUrl,
    outboxDir: path.join(config.dataDir, 'outbox'),
    from: config.mailFrom,
    log: app.log,
  });
  const keys = new SigningKeys(database.db, config.keyRotationDays);
  await keys.refresh();
  const fileUrlSecret = await getOrCreateSecret(database.db, 'file-url');
  const stripe = config.stripe ? new Stripe(config.stripe.secretKey) : undefined;
  const { storage, uploadFiles } = await storageFor(config, fileUrlSecret);
  // Services get a sender before the queue starts (the queue's jobs need the services' context).
  const running: { queue?: JobQueue } = {};
  const queue = (): JobQueue => {
    if (!running.queue) {
      throw new Error('the job queue is not running');
    }
    return running.queue;
  };
  const jobs: JobSender = {
    send: (name, data, sendOptions) => queue().send(name, data, sendOptions),
    sendAfterCommit: async (name, data, sendOptions) => {
      try {
        await jobs.send(name, data, sendOptions);
      } catch (err) {
        app.log.error({ err, job: name }, 'job not queued after its data was stored; a sweep will redo it');
      }
    },
  };
  const changes = new ChangeFeed();
  await changes.start(database);
  const mailer = createMailer(
    {
      // The message id is the job id, so storing a message twice stores one job.
      store: (mail, tx) => jobs.send(SEND_EMAIL_JOB, mail, { id: mail.id, tx }),
      countUndelivered: () => queue().countUnfinished(SEND_EMAIL_JOB),
      wake: () => queue().wake(SEND_EMAIL_JOB),
    },
    app.log,
  );
  // The received files' reader threads are shared by the process; they take the bound from here on.
  dicomPartReaders.limitHeap(config.dicom.partMemoryMb);
  const ctx: AppContext = {
    config,
    db: database.db,
    mailer,
    keys,
    log: app.log,
    sessionCache: new SharedCache(changes, 'sessions', { ttlMs: SESSION_CACHE_MS }),
    hospitalCache: new SharedCache(changes, 'hospitals', { ttlMs: SHARED_LIST_CACHE_MS }),
    notificationVersions: new SharedCache(changes, 'notifications', {
      ttlMs: SHARED_LIST_CACHE_MS,
      maxEntries: NOTIFICATION_VERSIONS_MAX,
    }),
    notificationLists: new SharedCache(changes, 'notifications', {
      ttlMs: SHARED_LIST_CACHE_MS,
      maxEntries: NOTIFICATION_LISTS_MAX,
    }),
    imagePages: new SharedCache(changes, 'archive', {
      ttlMs: IMAGE_PAGES_MS,
      maxEntries: IMAGE_PAGES_MAX,
      grouped: true,
    }),
    accessDecisions: new SharedCache(changes, 'access', {
      ttlMs: ACCESS_DECISIONS_MS,
      maxEntries: ACCESS_DECISIONS_MAX,
      grouped: true,
    }),
    instanceRows: new InstanceRowsCache(changes),
    storage,
    tusDir: path.join(config.storageDir, 'uploads'),
    uploadFiles,
    fileUrlSecret,
    jobs,
    payments: stripe ? stripeProvider(stripe, database.db) : sandboxProvider,
    readAudit: new ReadAuditWriter(database.db),
    refusedDemoSignIns: await findExposedDemoAccounts(database.db, config.host, app.log),
    decoder: new DecodePool({
      ...config.dicom.decode,
      maxInstanceBytes: config.dicom.maxInstanceBytes,
      maxRenderPixels: config.dicom.maxRenderPixels,
    }),
  };
  app.decorate('ctx', ctx);
  const tus = createTusServer(
    ctx,
    uploadFiles,
    {
      onBundleFinished: (upload) => earlyBundleReads.start(upload, ctx.tusDir),
      onUploadDeleted: (id) => void earlyBundleReads.discard(id),
    },
    // With instances sharing Redis, an upload's lock holds across them (a retry may reach another).
    rateLimitRedis && new RedisUploadLocker(rateLimitRedis, config.rateLimit.prefix),
  );
  running.queue = await startJobQueue(
    database,
    allJobs({
      ctx,
      database,
      storage,
      uploadFiles,
      jobs,
      mailTransport,
      maxImagePixels: config.uploads.maxImagePixels,
      decoder: ctx.decoder,
    }),
    app.log,
    {
      pollingIntervalSeconds: options.jobPollingSeconds,
      isWorking: isWorker && options.isWorkingJobs !== false,
      cronSeconds: options.cronSeconds,
      changes,
    },
  );

  // Once, after the upgrade to migration 0010: studies received before then join the archive.
  // Background work, like the jobs: done by an instance that runs them.
  if (isWorker) {
    await refileLegacyIncoming(ctx);
  }

  app.addHook('onRequest', (request, reply, done) => {
    void reply.header('X-Request-Id', request.id);
    done();
  });
  registerInputGuards(app);

  registerSecurityHeaders(app);
  await app.register(cookie);
  await registerCompression(app);
  if (isWeb) {
    await registerRateLimit(app, config, rateLimitRedis);
  }
  // A request that may have written answers once this process's caches have heard of its changes,
  // so that the same client's next read never meets a cache that still holds the old data.
  app.addHook('onSend', (request, _reply, payload, done) => {
    if (READ_ONLY_METHODS.has(request.method)) {
      done(null, payload);
    } else {
      changes.catchUp(database.db).then(
        () => done(null, payload),
        (err: unknown) => done(err as Error),
      );
    }
  });
  if (config.apiDocs && isWeb) {
    // Before the routes: it collects them as they are registered.
    await registerOpenApi(app);
  }
  if (isWeb) {
    registerRoutes(app, ctx, createAuthGuard(app, ctx), { database, tus, stripe });
    if (config.apiDocs) {
      await serveApiDocs(app);
    }
    await registerWebApp(app, config.webDistDir);
  } else {
    // A worker answers its health check (for the orchestrator) and nothing else.
    registerHealthRoutes(app, database);
  }
  // The DICOM node (DICOM_PORT) listens once the app is ready and closes first, before what it files with.
  let dicomNode: RunningDicomNode | undefined;
  if (config.dicom.node && isWorker) {
    app.addHook('onReady', async () => {
      dicomNode = await startDicomNode(ctx);
    });
  }
  app.addHook('onClose', async () => {
    await dicomNode?.close();
    // Queued emails stay in the database for the next instance; nothing to drain here.
    mailer.close();
    await running.queue?.stop();
    await changes.close();
    await ctx.decoder.close();
  });
  return app;
}
