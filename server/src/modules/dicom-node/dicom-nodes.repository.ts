import { and, asc, eq } from 'drizzle-orm';
import type { Queryable } from '../../db/client.js';
import { dicomNodes } from '../../db/schema/dicom-nodes.js';
import { users } from '../../db/schema/users.js';

/** A registered node with the account of the physician it belongs to. */
const nodeColumns = {
  id: dicomNodes.id,
  aeTitle: dicomNodes.aeTitle,
  host: dicomNodes.host,
  port: dicomNodes.port,
  physicianId: dicomNodes.physicianId,
  physicianEmail: users.email,
  role: users.role,
  title: users.title,
  firstName: users.firstName,
  lastName: users.lastName,
  emailVerifiedAt: users.emailVerifiedAt,
  totpEnabledAt: users.totpEnabledAt,
};

export type RegisteredNode = Awaited<ReturnType<typeof findNodeByAeTitle>>;

export async function findNodeByAeTitle(db: Queryable, aeTitle: string) {
  const [row] = await db
    .select(nodeColumns)
    .from(dicomNodes)
    .innerJoin(users, eq(users.id, dicomNodes.physicianId))
    .where(eq(dicomNodes.aeTitle, aeTitle));
  return row;
}

export function listNodes(db: Queryable) {
  return db
    .select(nodeColumns)
    .from(dicomNodes)
    .innerJoin(users, eq(users.id, dicomNodes.physicianId))
    .orderBy(asc(dicomNodes.aeTitle));
}

export function listNodesOf(db: Queryable, physicianId: string) {
  return db
    .select({ aeTitle: dicomNodes.aeTitle, host: dicomNodes.host, port: dicomNodes.port })
    .from(dicomNodes)
    .where(eq(dicomNodes.physicianId, physicianId))
    .orderBy(asc(dicomNodes.aeTitle));
}

/** Inserts a node; undefined when the AE title is taken. */
export async function insertNode(db: Queryable, node: typeof dicomNodes.$inferInsert) {
  const [row] = await db.insert(dicomNodes).values(node).onConflictDoNothing().returning();
  return row;
}

/** Removes the node of that AE title; undefined when there was none. */
export async function deleteNode(db: Queryable, aeTitle: string) {
  const [row] = await db.delete(dicomNodes).where(eq(dicomNodes.aeTitle, aeTitle)).returning();
  return row;
}

/** The physician's own node of that AE title. */
export async function findNodeOf(db: Queryable, physicianId: string, aeTitle: string) {
  const [row] = await db
    .select({ aeTitle: dicomNodes.aeTitle, host: dicomNodes.host, port: dicomNodes.port })
    .from(dicomNodes)
    .where(and(eq(dicomNodes.physicianId, physicianId), eq(dicomNodes.aeTitle, aeTitle)));
  return row;
}
