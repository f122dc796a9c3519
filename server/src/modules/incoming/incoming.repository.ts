import { eq } from 'drizzle-orm';
import type { Queryable } from '../../db/client.js';
import { incomingInstances, incomingStudies } from '../../db/schema/incoming.js';

/*
 * The legacy tables of studies received before migration 0010. Studies received since are archive
 * items of no patient: the studies module keeps and files them (received-studies.repository.ts).
 */

/**
 * Studies received before Incoming studies became archive items (migration 0010), with their
 * stored files, to be filed again the new way once.
 */
export async function listLegacyReceived(db: Queryable) {
  const rows = await db
    .select({
      id: incomingStudies.id,
      receiverId: incomingStudies.receiverId,
      source: incomingStudies.source,
      sopInstanceUid: incomingInstances.sopInstanceUid,
      storageKey: incomingInstances.storageKey,
    })
    .from(incomingStudies)
    .leftJoin(incomingInstances, eq(incomingInstances.incomingId, incomingStudies.id));
  const byStudy = new Map<
    string,
    {
      id: string;
      receiverId: string;
      source: string;
      files: { sopInstanceUid: string; storageKey: string }[];
    }
  >();
  for (const row of rows) {
    const study = byStudy.get(row.id) ?? {
      id: row.id,
      receiverId: row.receiverId,
      source: row.source,
      files: [],
    };
    if (row.sopInstanceUid && row.storageKey) {
      study.files.push({ sopInstanceUid: row.sopInstanceUid, storageKey: row.storageKey });
    }
    byStudy.set(row.id, study);
  }
  return [...byStudy.values()];
}

export async function deleteLegacyReceived(db: Queryable, id: string) {
  await db.delete(incomingStudies).where(eq(incomingStudies.id, id));
}
