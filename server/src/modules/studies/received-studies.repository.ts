import { and, desc, eq, sql, type SQL } from 'drizzle-orm';
import type { Queryable } from '../../db/client.js';
import { archiveItems } from '../../db/schema/archive-items.js';
import { dicomInstances, studies } from '../../db/schema/studies.js';
import { STUDY_SUMMARY_COLUMNS } from '../archive-items/index.js';

/*
 * Studies received by STOW-RS without a patient (a physician's Incoming list): archive items of no
 * patient yet, until their receiver files them under one.
 */

const RECEIVED_COLUMNS = {
  id: archiveItems.id,
  receivedAt: archiveItems.createdAt,
  receivedFrom: studies.receivedFrom,
  study: STUDY_SUMMARY_COLUMNS,
};

/** The waiting studies (`received`: the access policy's receivedItemFilter), newest first. */
export function listReceived(db: Queryable, received: SQL) {
  return db
    .select(RECEIVED_COLUMNS)
    .from(archiveItems)
    .innerJoin(studies, eq(studies.itemId, archiveItems.id))
    .where(received)
    .orderBy(desc(archiveItems.createdAt), desc(archiveItems.id));
}

/** A waiting study among `received`; undefined when it is not there (any more). */
export async function findReceived(db: Queryable, received: SQL, id: string) {
  const [row] = await db
    .select(RECEIVED_COLUMNS)
    .from(archiveItems)
    .innerJoin(studies, eq(studies.itemId, archiveItems.id))
    .where(and(eq(archiveItems.id, id), received));
  return row;
}

/**
 * Every patient's name and birth date (DA, as written) the instances of a study give, with how many
 * instances give each: the wrong-patient guard checks them all, not the first file's.
 */
export async function peopleInStudy(db: Queryable, itemId: string) {
  const name = sql<string>`coalesce(${dicomInstances.metadata}->'00100010'->'Value'->0->>'Alphabetic', '')`;
  const birthDate = sql<string>`coalesce(${dicomInstances.metadata}->'00100030'->'Value'->>0, '')`;
  return db
    .select({ name, birthDate, files: sql<number>`count(*)::integer` })
    .from(dicomInstances)
    .where(eq(dicomInstances.itemId, itemId))
    .groupBy(name, birthDate);
}

/**
 * Files a waiting study among `received` under a patient, into the patient's namespace of UIDs;
 * false when it was no longer waiting. Throws a unique violation when the patient already holds a
 * study of the same Study Instance UID.
 */
export async function fileReceived(db: Queryable, received: SQL, id: string, patientId: string) {
  const rows = await db
    .update(archiveItems)
    .set({ patientId, receiverId: null })
    .where(and(eq(archiveItems.id, id), received))
    .returning({ id: archiveItems.id });
  if (rows.length === 0) {
    return false;
  }
  await db.update(studies).set({ namespaceId: patientId }).where(eq(studies.itemId, id));
  return true;
}
