import crypto from 'node:crypto';

/** Bytes of randomness in a link's token: 256 bits, written as 43 base64url characters. */
const TOKEN_BYTES = 32;

/** A new link token from the operating system's random source. */
export function newShareToken(): string {
  return crypto.randomBytes(TOKEN_BYTES).toString('base64url');
}

/**
 * What the database keeps of a token. The token is random and long, so a plain SHA-256 cannot be
 * walked back; a lookup by it is one indexed equality, the same path for every token.
 */
export function tokenHashOf(token: string): string {
  return crypto.createHash('sha256').update(token, 'utf8').digest('hex');
}

/**
 * What the database keeps of an access code: an HMAC keyed by a server secret and bound to the
 * link, so a copy of the table alone does not let a short code be tried offline, and the same code
 * on two links hashes apart.
 */
export function accessCodeHashOf(secret: string, shareId: string, code: string): string {
  return crypto
    .createHmac('sha256', `share-access-code:${secret}`)
    .update(`${shareId}:${code}`, 'utf8')
    .digest('hex');
}

/** Whether a given code matches the stored hash, compared in constant time. */
export function accessCodeMatches(secret: string, shareId: string, code: string, stored: string): boolean {
  const given = Buffer.from(accessCodeHashOf(secret, shareId, code), 'hex');
  const kept = Buffer.from(stored, 'hex');
  return given.length === kept.length && crypto.timingSafeEqual(given, kept);
}
