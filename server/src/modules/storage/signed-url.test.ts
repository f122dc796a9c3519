import { describe, expect, it } from 'vitest';
import { SIGNED_URL_SECONDS, UrlSigner, verifySignedPath } from './signed-url.js';

const SECRET = 'test secret';
const PATH = '/api/files/images/a.png';
const audience = { viewerId: crypto.randomUUID(), patientId: crypto.randomUUID() };

function query(url: string) {
  return Object.fromEntries(new URL(url, 'http://x').searchParams);
}

describe('UrlSigner', () => {
  it('issues URLs valid for 30 to 35 minutes that the file route accepts', () => {
    const now = Date.now();
    const url = new UrlSigner(SECRET).sign(PATH, audience, now);
    const expires = Number(query(url).expires);
    expect(expires * 1000 - now).toBeGreaterThanOrEqual(SIGNED_URL_SECONDS * 1000 - 1000);
    expect(expires * 1000 - now).toBeLessThanOrEqual((SIGNED_URL_SECONDS + 5 * 60) * 1000);
    expect(verifySignedPath(SECRET, PATH, query(url), now)).toEqual({ audience });
    expect(verifySignedPath(SECRET, PATH, query(url), expires * 1000 + 1000)).toBeUndefined();
  });

  it('gives the same viewer the same URL within a step, and another viewer another signature', () => {
    const signer = new UrlSigner(SECRET);
    const start = Math.floor(Date.now() / 300_000) * 300_000;
    const first = signer.sign(PATH, audience, start + 1_000);
    expect(signer.sign(PATH, audience, start + 200_000)).toBe(first);
    const other = signer.sign(PATH, { ...audience, viewerId: crypto.randomUUID() }, start + 1_000);
    expect(query(other).sig).not.toBe(query(first).sig);
    // A remembered signature is never reused for another secret or a later expiry.
    const later = signer.sign(PATH, audience, start + 301_000);
    expect(query(later).expires).not.toBe(query(first).expires);
    expect(verifySignedPath(SECRET, PATH, query(later), start + 301_000)).toEqual({ audience });
    const otherSecret = new UrlSigner('another secret').sign(PATH, audience, start + 1_000);
    expect(verifySignedPath(SECRET, PATH, query(otherSecret), start + 1_000)).toBeUndefined();
  });
});
