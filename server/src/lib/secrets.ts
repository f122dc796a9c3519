import crypto from 'node:crypto';

/** A URL-safe random secret with 256 bits of entropy. */
export function randomSecret(): string {
  return crypto.randomBytes(32).toString('base64url');
}

/** Secrets are stored only as their SHA-256, so a database leak does not leak live links or sessions. */
export function sha256(value: string): string {
  return crypto.createHash('sha256').update(value).digest('hex');
}
