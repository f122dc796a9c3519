import { and, asc, count, eq, sql } from 'drizzle-orm';
import type { Queryable } from '../../db/client.js';
import { isAnyUuidOf } from '../../db/any-of.js';
import { annotations } from '../../db/schema/annotations.js';
import { archiveItems } from '../../db/schema/archive-items.js';
import { users } from '../../db/schema/users.js';

/** The item's kind and patient (null for a study still waiting in an Incoming list). */
export async function findItem(db: Queryable, itemId: string) {
  const [row] = await db
    .select({ id: archiveItems.id, kind: archiveItems.kind, patientId: archiveItems.patientId })
    .from(archiveItems)
    .where(eq(archiveItems.id, itemId));
  return row;
}

const ANNOTATION_COLUMNS = {
  id: annotations.id,
  kind: annotations.kind,
  seriesInstanceUid: annotations.seriesInstanceUid,
  sopInstanceUid: annotations.sopInstanceUid,
  frame: annotations.frame,
  data: annotations.data,
  label: annotations.label,
  updatedAt: annotations.updatedAt,
  authorId: users.id,
  authorRole: users.role,
  authorTitle: users.title,
  authorFirstName: users.firstName,
  authorLastName: users.lastName,
};

export type AnnotationRow = Awaited<ReturnType<typeof listAnnotations>>[number];

/** The item's annotations by these authors, oldest first (creation time, then id). */
export function listAnnotations(db: Queryable, itemId: string, authorIds: string[]) {
  return db
    .select(ANNOTATION_COLUMNS)
    .from(annotations)
    .innerJoin(users, eq(users.id, annotations.authorId))
    .where(and(eq(annotations.itemId, itemId), isAnyUuidOf(annotations.authorId, authorIds)))
    .orderBy(asc(annotations.createdAt), asc(annotations.id));
}

export async function findAnnotation(db: Queryable, annotationId: string) {
  const [row] = await db
    .select(ANNOTATION_COLUMNS)
    .from(annotations)
    .innerJoin(users, eq(users.id, annotations.authorId))
    .where(eq(annotations.id, annotationId));
  return row;
}

/** Who owns an annotation id and on which item; undefined when the id is free. */
export async function findOwner(db: Queryable, annotationId: string) {
  const [row] = await db
    .select({ itemId: annotations.itemId, authorId: annotations.authorId })
    .from(annotations)
    .where(eq(annotations.id, annotationId));
  return row;
}

/**
 * Holds, until the transaction ends, a lock on one author's annotations of one item, so that
 * concurrent saves count each other's rows.
 */
export async function lockAuthorItem(db: Queryable, itemId: string, authorId: string): Promise<void> {
  await db.execute(
    sql`select pg_advisory_xact_lock(hashtextextended(${`annotations:${itemId}:${authorId}`}, 0))`,
  );
}

export async function countAnnotations(db: Queryable, itemId: string, authorId: string): Promise<number> {
  const [row] = await db
    .select({ total: count() })
    .from(annotations)
    .where(and(eq(annotations.itemId, itemId), eq(annotations.authorId, authorId)));
  return row?.total ?? 0;
}

export type AnnotationValues = Omit<typeof annotations.$inferInsert, 'createdAt' | 'updatedAt'> & {
  id: string;
};

/** Writes the annotation whole, creating it or replacing the author's own on the same item. */
export async function upsertAnnotation(db: Queryable, values: AnnotationValues): Promise<void> {
  const { itemId, authorId } = values;
  await db
    .insert(annotations)
    .values(values)
    .onConflictDoUpdate({
      target: annotations.id,
      set: {
        kind: values.kind,
        seriesInstanceUid: values.seriesInstanceUid,
        sopInstanceUid: values.sopInstanceUid,
        frame: values.frame,
        data: values.data,
        label: values.label,
        updatedAt: new Date(),
      },
      // Never takes over another author's row, whatever the caller checked before.
      setWhere: and(eq(annotations.itemId, itemId), eq(annotations.authorId, authorId)),
    });
}

/** Deletes the author's annotation on the item; false when there was none. */
export async function deleteAnnotation(
  db: Queryable,
  annotationId: string,
  itemId: string,
  authorId: string,
): Promise<boolean> {
  const rows = await db
    .delete(annotations)
    .where(
      and(
        eq(annotations.id, annotationId),
        eq(annotations.itemId, itemId),
        eq(annotations.authorId, authorId),
      ),
    )
    .returning({ id: annotations.id });
  return rows.length > 0;
}

/** Of `itemIds`, those on which the author has drawn at least one annotation. */
export async function itemsAnnotatedBy(
  db: Queryable,
  authorId: string,
  itemIds: string[],
): Promise<Set<string>> {
  const rows = await db
    .selectDistinct({ itemId: annotations.itemId })
    .from(annotations)
    .where(and(eq(annotations.authorId, authorId), isAnyUuidOf(annotations.itemId, itemIds)));
  return new Set(rows.map((row) => row.itemId));
}
