import { eq } from 'drizzle-orm';
import type { Db } from '../db/client.js';
import { serverSecrets } from '../db/schema/identity.js';
import { randomSecret } from './secrets.js';

/** A named secret made once and shared by every instance through the database. */
export async function getOrCreateSecret(db: Db, name: string): Promise<string> {
  await db.insert(serverSecrets).values({ name, value: randomSecret() }).onConflictDoNothing();
  const [row] = await db.select().from(serverSecrets).where(eq(serverSecrets.name, name));
  return row!.value;
}
