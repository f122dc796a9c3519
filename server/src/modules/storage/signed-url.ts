import crypto from 'node:crypto';

/** Files are served only through URLs signed with a server secret and valid for a limited time. */
export const SIGNED_URL_SECONDS = 30 * 60;

/** Where the local-disk storage serves its files. */
export const FILES_PREFIX = '/api/files/';

function signature(secret: string, path: string, expires: number): string {
  return crypto.createHmac('sha256', secret).update(`${path}\n${expires}`).digest('base64url');
}

export function signPath(secret: string, path: string, now = Date.now()): string {
  const expires = Math.floor(now / 1000) + SIGNED_URL_SECONDS;
  return `${path}?expires=${expires}&sig=${signature(secret, path, expires)}`;
}

/** True when `sig` is the signature of `path` until `expires` and that moment has not passed. */
export function isValidSignature(
  secret: string,
  path: string,
  expires: string | undefined,
  sig: string | undefined,
  now = Date.now(),
): boolean {
  const expiresAt = Number(expires);
  if (!sig || !Number.isInteger(expiresAt) || expiresAt * 1000 < now) {
    return false;
  }
  const expected = Buffer.from(signature(secret, path, expiresAt));
  const given = Buffer.from(sig);
  return expected.length === given.length && crypto.timingSafeEqual(expected, given);
}
