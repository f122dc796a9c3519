import crypto from 'node:crypto';
import { z } from 'zod';
import { LRUCache } from 'lru-cache';

/** Files are served only through URLs signed with a server secret and valid for a limited time. */
export const SIGNED_URL_SECONDS = 30 * 60;

/** Where the local-disk storage serves its files. */
export const FILES_PREFIX = '/api/files/';

/**
 * Whom a URL to a patient's file was issued to, and whose file it is. Both travel in the URL under
 * the signature, so the download can be audited against the viewer and cannot be re-labelled.
 */
export interface FileAudience {
  viewerId: string;
  patientId: string;
}

const uuid = z.uuid();

function signature(secret: string, path: string, expires: number, audience: FileAudience | null): string {
  // A different message shape with an audience, so stripping u/p from a URL breaks its signature.
  const message = audience
    ? `audience\n${path}\n${expires}\n${audience.viewerId}\n${audience.patientId}`
    : `${path}\n${expires}`;
  return crypto.createHmac('sha256', secret).update(message).digest('base64url');
}

/**
 * URLs issued within one step share their expiry (valid for 30 to 35 minutes), so a file gets
 * the same URL for the same viewer for a while and its signature is computed once per step: an
 * image list signs a hundred URLs per page.
 */
export const EXPIRY_STEP_SECONDS = 5 * 60;
const MEMO_MAX = 50_000;

export function expiryFor(now: number): number {
  const earliest = Math.floor(now / 1000) + SIGNED_URL_SECONDS;
  return Math.ceil(earliest / EXPIRY_STEP_SECONDS) * EXPIRY_STEP_SECONDS;
}

/** Signs file URLs with the server's secret, remembering the signatures of the current step. */
export class UrlSigner {
  private readonly signatures = new LRUCache<string, string>({
    ttl: EXPIRY_STEP_SECONDS * 1000,
    max: MEMO_MAX,
  });

  constructor(private readonly secret: string) {}

  sign(path: string, audience: FileAudience | null, now = Date.now()): string {
    const expires = expiryFor(now);
    const memoKey = `${expires}\n${path}\n${audience?.viewerId ?? ''}\n${audience?.patientId ?? ''}`;
    let sig = this.signatures.get(memoKey);
    if (sig === undefined) {
      sig = signature(this.secret, path, expires, audience);
      this.signatures.set(memoKey, sig);
    }
    const url = `${path}?expires=${expires}&sig=${sig}`;
    return audience ? `${url}&u=${audience.viewerId}&p=${audience.patientId}` : url;
  }
}

export interface SignedQuery {
  expires?: string;
  sig?: string;
  u?: string;
  p?: string;
}

/**
 * Checks that `sig` signs `path`, the expiry and the audience (when the URL carries one) and
 * that the expiry has not passed. Returns the audience (null for a URL without one), or
 * undefined when the URL is not valid.
 */
export function verifySignedPath(
  secret: string,
  path: string,
  query: SignedQuery,
  now = Date.now(),
): { audience: FileAudience | null } | undefined {
  const expiresAt = Number(query.expires);
  if (!query.sig || !Number.isInteger(expiresAt) || expiresAt * 1000 < now) {
    return undefined;
  }
  let audience: FileAudience | null = null;
  if (query.u !== undefined || query.p !== undefined) {
    if (!uuid.safeParse(query.u).success || !uuid.safeParse(query.p).success) {
      return undefined;
    }
    audience = { viewerId: query.u!, patientId: query.p! };
  }
  const expected = Buffer.from(signature(secret, path, expiresAt, audience));
  const given = Buffer.from(query.sig);
  const isValid = expected.length === given.length && crypto.timingSafeEqual(expected, given);
  return isValid ? { audience } : undefined;
}
