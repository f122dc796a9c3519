import os from 'node:os';
import path from 'node:path';
import { z } from 'zod';
import { aeTitleField } from '@ra/shared';
import { parseTrustProxy, type TrustProxy } from './lib/trust-proxy.js';

/**
 * Every environment variable the server reads, parsed and documented in one place.
 * The README's configuration table mirrors this file.
 */
const envSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  /** Address and port the HTTP server listens on. */
  HOST: z.string().default('127.0.0.1'),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  /** Where the embedded database, files and outbox live. Relative paths start at the repository root. */
  DATA_DIR: z.string().default('data'),
  /** Where uploaded files are kept (local-disk storage). Default: DATA_DIR/files. */
  STORAGE_DIR: z.string().optional(),
  /** Where stored files and resumable uploads live: `local` (STORAGE_DIR) or `s3` (one bucket all instances share). */
  STORAGE: z.enum(['local', 's3']).default('local'),
  /** The S3-protocol endpoint, an http(s) URL (MinIO, Ceph RGW, …); unset: AWS S3 itself. */
  S3_ENDPOINT: z.url({ protocol: /^https?$/ }).optional(),
  /** The bucket files and uploads are kept in; required with STORAGE=s3. */
  S3_BUCKET: z.string().optional(),
  S3_REGION: z.string().min(1).default('us-east-1'),
  /** 1 (or true): address the bucket in the path (MinIO, s3rver); 0: as a host name (AWS). */
  S3_FORCE_PATH_STYLE: z.enum(['0', '1', 'true', 'false']).default('0'),
  /** PostgreSQL connection string; without it the embedded PGlite database in DATA_DIR/db is used. */
  DATABASE_URL: z.string().optional(),
  /** Maximum connections of the PostgreSQL pool. */
  DATABASE_POOL_SIZE: z.coerce.number().int().min(1).max(100).default(10),
  /** The address users reach the web app at; links in emails point here. */
  PUBLIC_URL: z.url().default('http://localhost:3000'),
  /** SMTP connection string (smtp://user:pass@host:587); without it emails are written to DATA_DIR/outbox. */
  SMTP_URL: z.string().optional(),
  MAIL_FROM: z.string().default('Radiology Archive <no-reply@radiology-archive.local>'),
  /**
   * 1: create whatever of the demo world is missing at every start (never touching existing accounts);
   * 0: never. Unset: only an empty embedded database of a server listening on loopback is seeded.
   */
  SEED_DEMO: z.enum(['0', '1']).optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /**
   * Which X-Forwarded-* headers to believe (client IP, https): `0` none; a hop count (`1` = one proxy
   * in front); or a comma-separated list of proxy IPs/CIDRs (`10.0.0.0/8,127.0.0.1`).
   */
  TRUST_PROXY: z
    .string()
    .default('0')
    .transform((value, context) => {
      try {
        return parseTrustProxy(value);
      } catch (err) {
        context.addIssue({ code: 'custom', message: (err as Error).message });
        return z.NEVER;
      }
    }),
  /** Days before the access-token signing key is replaced by a new one. */
  JWT_KEY_ROTATION_DAYS: z.coerce.number().int().min(1).default(30),
  /** Set to 1 to make two-factor sign-in compulsory for physicians and radiologists. */
  REQUIRE_STAFF_MFA: z.enum(['0', '1']).default('0'),
  /** Minutes without user activity after which a session is revoked (docs/security.md §5). */
  SESSION_IDLE_MINUTES: z.coerce
    .number()
    .int()
    .min(1)
    .max(24 * 60)
    .default(30),
  /** Requests per minute allowed per IP, and per email, on sign-in, sign-up, portal and reset. */
  AUTH_RATE_LIMIT_PER_IP: z.coerce.number().int().min(1).default(30),
  AUTH_RATE_LIMIT_PER_EMAIL: z.coerce.number().int().min(1).default(10),
  /** Stripe secret key; with it invoices are paid on Stripe's hosted pages instead of the sandbox. */
  STRIPE_SECRET_KEY: z.string().optional(),
  /** Signing secret of the Stripe webhook endpoint (/api/payment/webhook/stripe). */
  STRIPE_WEBHOOK_SECRET: z.string().optional(),
  /** Folder of the built web app; served at / in production. */
  WEB_DIST_DIR: z.string().optional(),
  /**
   * 1: serve the OpenAPI document (/api/openapi.json) and its reference page (/api/docs); 0: neither.
   * Unset: on in development and test, off in production. They describe routes and shapes, never
   * data, but they map every route for whoever asks, so production serves them only when told to.
   */
  API_DOCS: z.enum(['0', '1']).optional(),
  /** Largest medical image accepted, in megapixels (width × height); also the decoder's limit. */
  MAX_IMAGE_MEGAPIXELS: z.coerce.number().positive().default(300),
  /**
   * Per-user upload quotas. A physician sending a whole CD (about 3,000 files, 5 GB) is never held
   * back: 3,000 pending < 5,000, 5 GB < 20 GB, and 3,000 creations at 6,000 a minute take 30
   * seconds, while sending 5 GB takes longer than that on any link under about 1.3 Gbit/s, so the
   * bandwidth, not the quota, sets the pace. The rate still stops a script flooding the table.
   */
  UPLOAD_MAX_PENDING: z.coerce.number().int().min(1).default(5000),
  /** Total declared size of a user's unfinished uploads, in GB (decimals allowed). */
  UPLOAD_MAX_PENDING_GB: z.coerce.number().positive().default(20),
  UPLOAD_CREATE_PER_MINUTE: z.coerce.number().int().min(1).default(6000),
  /**
   * Largest DICOM instance (Part 10 file) read, in bytes: a larger STOW-RS part is refused, and a
   * deflated dataset may inflate to at most four times this (a 400 KB zip bomb inflates to 400 MB).
   */
  DICOM_MAX_INSTANCE_BYTES: z.coerce
    .number()
    .int()
    .min(1024 * 1024)
    .default(256 * 1024 ** 2),
  /** Largest frame rendered or decoded, in megapixels (rows × columns × samples per pixel). */
  MAX_RENDER_MEGAPIXELS: z.coerce.number().positive().default(64),
  /** Worker threads that parse, decode and render stored DICOM files (default: cores − 1, 1 to 4). */
  DICOM_DECODE_THREADS: z.coerce.number().int().min(1).max(64).optional(),
  /** Reads waiting for a decode thread; one more is refused with 503 and Retry-After. */
  DICOM_DECODE_QUEUE: z.coerce.number().int().min(0).default(32),
  /** Seconds one read may take on its thread, and the old-generation heap it may use, in MiB. */
  DICOM_DECODE_TIMEOUT_SECONDS: z.coerce.number().positive().default(20),
  DICOM_DECODE_MEMORY_MB: z.coerce.number().int().min(64).default(768),
  /** The old-generation heap, in MiB, of a thread that reads received files (STOW-RS parts, bundles). */
  DICOM_PART_MEMORY_MB: z.coerce.number().int().min(64).default(256),
  /**
   * One instance's metadata (DICOM JSON) at most, in bytes; a larger one is refused per instance.
   * Read by dicom/instance-checks.ts on the threads that parse files, validated here at start.
   */
  DICOM_MAX_METADATA_BYTES: z.coerce
    .number()
    .int()
    .min(64 * 1024)
    .default(1024 * 1024),
  /** What each user may store (studies and images they uploaded), in GB (decimals allowed). */
  STORAGE_QUOTA_GB: z.coerce.number().positive().default(50),
  /** DICOMweb requests per user per minute: reads (QIDO-RS, WADO-RS) and writes (STOW-RS), counted apart. */
  DICOMWEB_READS_PER_MINUTE: z.coerce.number().int().min(1).default(6000),
  DICOMWEB_WRITES_PER_MINUTE: z.coerce.number().int().min(1).default(3000),
  /**
   * The port of the DICOM node (C-ECHO and C-STORE from registered AE titles, modules/dicom-node),
   * on HOST. Unset: no DICOM node.
   */
  DICOM_PORT: z.coerce.number().int().min(1).max(65535).optional(),
  /** The node's own AE title, which callers must address (1 to 16 characters). */
  DICOM_AE_TITLE: aeTitleField('DICOM_AE_TITLE').default('RADARCHIVE'),
  /**
   * What this instance does (docs/operations.md §16): `web` answers HTTP and runs no background work;
   * `worker` runs the job workers, the scheduled sweeps and the DICOM node and answers only
   * /api/health; `all` does both (one instance alone).
   */
  ROLE: z.enum(['web', 'worker', 'all'], { error: 'must be web, worker or all' }).default('all'),
  /**
   * Redis for the rate-limit counters (redis://host:6379 or rediss://…), shared by every instance.
   * Unset: counters live in this process's memory (right for one instance only).
   */
  REDIS_URL: z
    .string()
    .optional()
    .refine((value) => !value || /^rediss?:\/\//.test(value), 'must start with redis:// or rediss://'),
  /** Starts every rate-limit key in Redis, so several deployments (or test runs) can share one. */
  RATE_LIMIT_PREFIX: z
    .string()
    .regex(/^[A-Za-z0-9:_.-]{1,64}$/, 'must be 1 to 64 letters, digits or : _ . -')
    .default('ra:rl:'),
});

export interface Config {
  env: 'development' | 'production' | 'test';
  host: string;
  port: number;
  dataDir: string;
  storageDir: string;
  /**
   * Where stored files and resumable uploads live: the local disk under storageDir, or one S3
   * bucket (credentials come from the AWS SDK's default chain: AWS_ACCESS_KEY_ID and so on).
   */
  storage: { driver: 'local' } | { driver: 's3'; s3: S3Settings };
  databaseUrl: string | undefined;
  databasePoolSize: number;
  publicUrl: string;
  smtpUrl: string | undefined;
  mailFrom: string;
  seedDemo: boolean | undefined;
  logLevel: string;
  /** 0 = trust no proxy; a number = that many hops; a list = proxies at those addresses. */
  trustProxy: TrustProxy;
  keyRotationDays: number;
  sessionIdleMinutes: number;
  requireStaffMfa: boolean;
  rateLimit: {
    perIp: number;
    perEmail: number;
    dicomwebReads: number;
    dicomwebWrites: number;
    /** Redis shared by every instance (REDIS_URL); undefined: counters in this process's memory. */
    redisUrl: string | undefined;
    /** What every key this deployment writes to Redis starts with (RATE_LIMIT_PREFIX). */
    prefix: string;
  };
  /** What this instance runs (ROLE): HTTP, background work, or both. */
  role: InstanceRole;
  webDistDir: string | undefined;
  /** Whether /api/openapi.json and /api/docs are served (API_DOCS). */
  apiDocs: boolean;
  stripe: { secretKey: string; webhookSecret: string } | undefined;
  uploads: {
    maxImagePixels: number;
    maxImageMegapixels: number;
    maxPending: number;
    maxPendingBytes: number;
    createPerMinute: number;
    /** What one user may store in the archive, in bytes (STORAGE_QUOTA_GB). */
    storageQuotaBytes: number;
  };
  dicom: {
    maxInstanceBytes: number;
    /** Samples of the largest frame rendered or decoded (MAX_RENDER_MEGAPIXELS × 10⁶). */
    maxRenderPixels: number;
    decode: DecodeLimits;
    /** The heap of one thread that reads received files, in MiB (DICOM_PART_MEMORY_MB). */
    partMemoryMb: number;
    /** The archive's AE title (DICOM_AE_TITLE), also when it sends studies with the node off. */
    aeTitle: string;
    /** The DICOM node (DICOM_PORT, DICOM_AE_TITLE); undefined when it is off. */
    node: { port: number; aeTitle: string } | undefined;
  };
}

/** The bucket of STORAGE=s3 and how to reach it. */
export interface S3Settings {
  /** Undefined: AWS S3. */
  endpoint: string | undefined;
  bucket: string;
  region: string;
  forcePathStyle: boolean;
}

export type InstanceRole = 'web' | 'worker' | 'all';

/** Whether an instance of `role` answers the API and serves the web app (a worker answers /api/health only). */
export function servesHttp(role: InstanceRole): boolean {
  return role !== 'worker';
}

/** Whether an instance of `role` runs job workers, scheduled sweeps and the DICOM node. */
export function runsBackgroundWork(role: InstanceRole): boolean {
  return role !== 'web';
}

/** How the DICOM decode threads are bounded (dicom/decode-pool.ts). */
export interface DecodeLimits {
  threads: number;
  maxQueue: number;
  timeoutMs: number;
  maxOldGenerationMb: number;
}

function stripeConfig(secretKey: string | undefined, webhookSecret: string | undefined): Config['stripe'] {
  if (!secretKey) {
    return undefined;
  }
  // Without the signing secret every webhook would be checked against an empty key: refuse to start.
  if (!webhookSecret) {
    throw new Error(
      'Invalid configuration:\n  STRIPE_WEBHOOK_SECRET is required when STRIPE_SECRET_KEY is set',
    );
  }
  return { secretKey, webhookSecret };
}

function storageConfig(e: z.infer<typeof envSchema>): Config['storage'] {
  if (e.STORAGE === 'local') {
    return { driver: 'local' };
  }
  // The S3 bucket naming rule (3 to 63 characters), checked here so a typo stops the start, not the first upload.
  const bucket = e.S3_BUCKET ?? '';
  if (!/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/.test(bucket)) {
    throw new Error(
      bucket
        ? `Invalid configuration:\n  S3_BUCKET: "${bucket}" is not a valid bucket name (3 to 63 lower-case letters, digits, dots and hyphens)`
        : 'Invalid configuration:\n  S3_BUCKET is required when STORAGE=s3',
    );
  }
  return {
    driver: 's3',
    s3: {
      endpoint: e.S3_ENDPOINT?.replace(/\/+$/, ''),
      bucket,
      region: e.S3_REGION,
      forcePathStyle: e.S3_FORCE_PATH_STYLE === '1' || e.S3_FORCE_PATH_STYLE === 'true',
    },
  };
}

const repoRoot = path.resolve(import.meta.dirname, '..', '..');

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
    throw new Error(`Invalid configuration:\n  ${problems.join('\n  ')}`);
  }
  const e = parsed.data;
  // The embedded database is one process's: a web instance beside it could never reach a worker.
  if (e.ROLE !== 'all' && !e.DATABASE_URL) {
    throw new Error(
      `Invalid configuration:\n  ROLE: ${e.ROLE} needs DATABASE_URL (the embedded database serves one process; use ROLE=all)`,
    );
  }
  return {
    env: e.NODE_ENV,
    host: e.HOST,
    port: e.PORT,
    dataDir: path.resolve(repoRoot, e.DATA_DIR),
    storageDir: e.STORAGE_DIR
      ? path.resolve(repoRoot, e.STORAGE_DIR)
      : path.join(path.resolve(repoRoot, e.DATA_DIR), 'files'),
    storage: storageConfig(e),
    databaseUrl: e.DATABASE_URL || undefined,
    databasePoolSize: e.DATABASE_POOL_SIZE,
    publicUrl: e.PUBLIC_URL.replace(/\/+$/, ''),
    smtpUrl: e.SMTP_URL || undefined,
    mailFrom: e.MAIL_FROM,
    seedDemo: e.SEED_DEMO === undefined ? undefined : e.SEED_DEMO === '1',
    logLevel: e.LOG_LEVEL,
    trustProxy: e.TRUST_PROXY,
    keyRotationDays: e.JWT_KEY_ROTATION_DAYS,
    sessionIdleMinutes: e.SESSION_IDLE_MINUTES,
    requireStaffMfa: e.REQUIRE_STAFF_MFA === '1',
    rateLimit: {
      perIp: e.AUTH_RATE_LIMIT_PER_IP,
      perEmail: e.AUTH_RATE_LIMIT_PER_EMAIL,
      dicomwebReads: e.DICOMWEB_READS_PER_MINUTE,
      dicomwebWrites: e.DICOMWEB_WRITES_PER_MINUTE,
      redisUrl: e.REDIS_URL || undefined,
      prefix: e.RATE_LIMIT_PREFIX,
    },
    role: e.ROLE,
    stripe: stripeConfig(e.STRIPE_SECRET_KEY, e.STRIPE_WEBHOOK_SECRET),
    uploads: {
      maxImagePixels: Math.round(e.MAX_IMAGE_MEGAPIXELS * 1_000_000),
      maxImageMegapixels: e.MAX_IMAGE_MEGAPIXELS,
      maxPending: e.UPLOAD_MAX_PENDING,
      maxPendingBytes: Math.round(e.UPLOAD_MAX_PENDING_GB * 1024 ** 3),
      createPerMinute: e.UPLOAD_CREATE_PER_MINUTE,
      storageQuotaBytes: Math.round(e.STORAGE_QUOTA_GB * 1024 ** 3),
    },
    dicom: {
      maxInstanceBytes: e.DICOM_MAX_INSTANCE_BYTES,
      maxRenderPixels: Math.round(e.MAX_RENDER_MEGAPIXELS * 1_000_000),
      decode: {
        // One core stays with the main thread, which must keep answering while files are decoded.
        threads: e.DICOM_DECODE_THREADS ?? Math.min(4, Math.max(1, os.availableParallelism() - 1)),
        maxQueue: e.DICOM_DECODE_QUEUE,
        timeoutMs: Math.round(e.DICOM_DECODE_TIMEOUT_SECONDS * 1000),
        maxOldGenerationMb: e.DICOM_DECODE_MEMORY_MB,
      },
      partMemoryMb: e.DICOM_PART_MEMORY_MB,
      aeTitle: e.DICOM_AE_TITLE,
      node: e.DICOM_PORT === undefined ? undefined : { port: e.DICOM_PORT, aeTitle: e.DICOM_AE_TITLE },
    },
    webDistDir: e.WEB_DIST_DIR
      ? path.resolve(repoRoot, e.WEB_DIST_DIR)
      : e.NODE_ENV === 'production'
        ? path.join(repoRoot, 'web', 'dist')
        : undefined,
    apiDocs: e.API_DOCS === undefined ? e.NODE_ENV !== 'production' : e.API_DOCS === '1',
  };
}
