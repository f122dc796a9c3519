import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACCESS_TOKEN_SECONDS } from '@ra/shared';
import { openPglite, type Database } from '../../db/client.js';
import { SigningKeys } from './signing-keys.js';

let database: Database;
beforeAll(async () => {
  database = await openPglite(undefined);
  await database.migrate();
});
afterAll(() => database.close());

const claims = { userId: crypto.randomUUID(), sessionId: crypto.randomUUID() };

describe('SigningKeys.verify', () => {
  it('accepts a token it signed, again and again, until it expires', async () => {
    const keys = new SigningKeys(database.db, 30);
    const token = await keys.sign(claims);
    const now = Date.now();
    expect(await keys.verify(token, now)).toEqual(claims);
    // The second answer comes from the verified-token cache; it must still honour the expiry.
    expect(await keys.verify(token, now + 1000)).toEqual(claims);
    expect(await keys.verify(token, now + (ACCESS_TOKEN_SECONDS + 5) * 1000)).toBeNull();
  });

  it('refuses a token whose payload was altered after a valid one was cached', async () => {
    const keys = new SigningKeys(database.db, 30);
    const token = await keys.sign(claims);
    expect(await keys.verify(token)).toEqual(claims);
    const [header, payload, signature] = token.split('.') as [string, string, string];
    const forged = JSON.parse(Buffer.from(payload, 'base64url').toString()) as Record<string, unknown>;
    forged.sub = crypto.randomUUID();
    const altered = `${header}.${Buffer.from(JSON.stringify(forged)).toString('base64url')}.${signature}`;
    expect(await keys.verify(altered)).toBeNull();
  });

  it('refuses a token another instance signed with a key this database does not hold', async () => {
    const other = await openPglite(undefined);
    await other.migrate();
    try {
      const foreign = await new SigningKeys(other.db, 30).sign(claims);
      expect(await new SigningKeys(database.db, 30).verify(foreign)).toBeNull();
    } finally {
      await other.close();
    }
  });
});
