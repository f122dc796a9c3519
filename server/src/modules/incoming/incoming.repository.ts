import { and, desc, eq, sql } from 'drizzle-orm';
import type { Queryable } from '../../db/client.js';
import { incomingInstances, incomingStudies } from '../../db/schema/index.js';

/** The receiver's waiting study of that Study Instance UID, made when it is the first of its files. */
export async function findOrCreateStudy(
  db: Queryable,
  study: typeof incomingStudies.$inferInsert & { receiverId: string; studyInstanceUid: string },
): Promise<string> {
  await db.insert(incomingStudies).values(study).onConflictDoNothing();
  const [row] = await db
    .select({ id: incomingStudies.id })
    .from(incomingStudies)
    .where(
      and(
        eq(incomingStudies.receiverId, study.receiverId),
        eq(incomingStudies.studyInstanceUid, study.studyInstanceUid),
      ),
    );
  return row!.id;
}

/** Records received files; one already received is skipped. Returns the SOP Instance UIDs recorded. */
export async function insertInstances(
  db: Queryable,
  instances: (typeof incomingInstances.$inferInsert)[],
): Promise<Set<string>> {
  if (instances.length === 0) {
    return new Set();
  }
  const rows = await db
    .insert(incomingInstances)
    .values(instances)
    .onConflictDoNothing()
    .returning({ sop: incomingInstances.sopInstanceUid });
  return new Set(rows.map((row) => row.sop));
}

/** The receiver's waiting studies, newest first, with their series, instance and modality counts. */
export function listStudies(db: Queryable, receiverId: string) {
  return db
    .select({
      id: incomingStudies.id,
      studyInstanceUid: incomingStudies.studyInstanceUid,
      studyDate: incomingStudies.studyDate,
      studyDescription: incomingStudies.studyDescription,
      patientNameInFile: incomingStudies.patientNameInFile,
      patientBirthDateInFile: incomingStudies.patientBirthDateInFile,
      source: incomingStudies.source,
      receivedAt: incomingStudies.receivedAt,
      // Qualified by hand: drizzle leaves column names bare in a one-table query, which a subquery
      // would read as its own table's.
      seriesCount: sql<number>`(select count(distinct i.series_instance_uid)::int from incoming_instances i where i.incoming_id = incoming_studies.id)`,
      instanceCount: sql<number>`(select count(*)::int from incoming_instances i where i.incoming_id = incoming_studies.id)`,
      modalities: sql<
        string[]
      >`coalesce((select array_agg(distinct i.modality order by i.modality) from incoming_instances i where i.incoming_id = incoming_studies.id and i.modality <> ''), '{}')`,
    })
    .from(incomingStudies)
    .where(eq(incomingStudies.receiverId, receiverId))
    .orderBy(desc(incomingStudies.receivedAt), desc(incomingStudies.id));
}

/** A waiting study of this receiver, with its files; undefined when it is not theirs or gone. */
export async function findStudyOf(db: Queryable, receiverId: string, id: string) {
  const [study] = await db
    .select({ id: incomingStudies.id })
    .from(incomingStudies)
    .where(and(eq(incomingStudies.id, id), eq(incomingStudies.receiverId, receiverId)));
  if (!study) {
    return undefined;
  }
  const files = await db
    .select({ sopInstanceUid: incomingInstances.sopInstanceUid, storageKey: incomingInstances.storageKey })
    .from(incomingInstances)
    .where(eq(incomingInstances.incomingId, id));
  return { id: study.id, files };
}

export async function deleteStudy(db: Queryable, id: string) {
  await db.delete(incomingStudies).where(eq(incomingStudies.id, id));
}
