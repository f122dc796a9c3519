import crypto from 'node:crypto';
import { desc, gt, isNull, or } from 'drizzle-orm';
import { exportJWK, generateKeyPair, importJWK, jwtVerify, SignJWT, type JWK, type JWTPayload } from 'jose';
import { LRUCache } from 'lru-cache';
import { ACCESS_TOKEN_SECONDS } from '@ra/shared';
import type { Db } from '../../db/client.js';
import { signingKeys } from '../../db/schema/identity.js';

type Key = Awaited<ReturnType<typeof importJWK>>;

const ALGORITHM = 'ES256';
const ISSUER = 'radiology-archive';
/** Tokens verified recently; an ES256 check costs more than the rest of a cached request. */
const VERIFIED_TOKENS_MAX = 20_000;
/** A retired key keeps verifying for longer than any token it signed can live. */
const RETIRED_KEY_GRACE_MS = 2 * ACCESS_TOKEN_SECONDS * 1000;

export interface AccessClaims {
  userId: string;
  sessionId: string;
}

interface VerifiedToken {
  claims: AccessClaims;
  expiresAtMs: number;
}

interface LoadedKey {
  kid: string;
  createdAt: Date;
  privateKey: Key;
  publicKey: Key;
}

/**
 * Signs and verifies access tokens (JWT, ES256). Keys are generated once, stored in the database
 * so every instance shares them, and rotated after `rotationDays`; old keys still verify until
 * their tokens have expired, so a rotation signs nobody out.
 */
export class SigningKeys {
  private keys = new Map<string, LoadedKey>();
  private current: LoadedKey | undefined;
  /**
   * Claims of tokens whose signature was checked, by the token's exact text: the same bytes
   * verify the same way, so only the expiry is checked again on later requests.
   */
  private readonly verified = new LRUCache<string, VerifiedToken>({
    ttl: ACCESS_TOKEN_SECONDS * 1000,
    max: VERIFIED_TOKENS_MAX,
  });

  constructor(
    private readonly db: Db,
    private readonly rotationDays: number,
  ) {}

  /** Loads the usable keys, creating or rotating the signing key when due. */
  async refresh(now = new Date()): Promise<void> {
    await this.load(now);
    const maxAgeMs = this.rotationDays * 24 * 3600 * 1000;
    if (!this.current || now.getTime() - this.current.createdAt.getTime() > maxAgeMs) {
      await this.rotate(now);
      await this.load(now);
    }
  }

  async sign(claims: AccessClaims): Promise<string> {
    if (!this.current) {
      await this.refresh();
    }
    const key = this.current!;
    return new SignJWT({ sid: claims.sessionId })
      .setProtectedHeader({ alg: ALGORITHM, kid: key.kid })
      .setSubject(claims.userId)
      .setIssuer(ISSUER)
      .setIssuedAt()
      .setExpirationTime(`${ACCESS_TOKEN_SECONDS}s`)
      .sign(key.privateKey);
  }

  /** Returns the claims of a valid token, or null for a bad, expired or foreign one. */
  async verify(token: string, now = Date.now()): Promise<AccessClaims | null> {
    const known = this.verified.get(token);
    if (known) {
      return known.expiresAtMs > now ? known.claims : null;
    }
    try {
      const { payload } = await jwtVerify(token, (header) => this.publicKeyFor(header.kid), {
        issuer: ISSUER,
        algorithms: [ALGORITHM],
        currentDate: new Date(now),
      });
      const claims = toClaims(payload);
      if (claims && payload.exp !== undefined) {
        this.verified.set(token, { claims, expiresAtMs: payload.exp * 1000 });
      }
      return claims;
    } catch {
      return null;
    }
  }

  private async publicKeyFor(kid: string | undefined): Promise<Key> {
    if (!kid) {
      throw new Error('token without key id');
    }
    if (!this.keys.has(kid)) {
      // Another instance may have rotated; look again before refusing.
      await this.load(new Date());
    }
    const key = this.keys.get(kid);
    if (!key) {
      throw new Error('unknown key id');
    }
    return key.publicKey;
  }

  private async rotate(now: Date): Promise<void> {
    const { privateKey, publicKey } = await generateKeyPair(ALGORITHM, { extractable: true });
    const kid = crypto.randomUUID();
    await this.db.transaction(async (tx) => {
      await tx.update(signingKeys).set({ retiredAt: now }).where(isNull(signingKeys.retiredAt));
      await tx.insert(signingKeys).values({
        kid,
        algorithm: ALGORITHM,
        privateJwk: JSON.stringify(await exportJWK(privateKey)),
        publicJwk: JSON.stringify(await exportJWK(publicKey)),
        createdAt: now,
      });
    });
  }

  private async load(now: Date): Promise<void> {
    const rows = await this.db
      .select()
      .from(signingKeys)
      .where(
        or(
          isNull(signingKeys.retiredAt),
          gt(signingKeys.retiredAt, new Date(now.getTime() - RETIRED_KEY_GRACE_MS)),
        ),
      )
      .orderBy(desc(signingKeys.createdAt));
    const keys = new Map<string, LoadedKey>();
    for (const row of rows) {
      keys.set(row.kid, {
        kid: row.kid,
        createdAt: row.createdAt,
        privateKey: await importJWK(JSON.parse(row.privateJwk) as JWK, row.algorithm),
        publicKey: await importJWK(JSON.parse(row.publicJwk) as JWK, row.algorithm),
      });
    }
    this.keys = keys;
    const active = rows.find((row) => row.retiredAt === null);
    this.current = active ? keys.get(active.kid) : undefined;
  }
}

function toClaims(payload: JWTPayload): AccessClaims | null {
  const sid = payload.sid;
  if (typeof payload.sub !== 'string' || typeof sid !== 'string') {
    return null;
  }
  return { userId: payload.sub, sessionId: sid };
}
