import { and, eq, inArray, sql, type SQL, type SQLWrapper } from 'drizzle-orm';
import type { Queryable } from '../../db/client.js';
import { isAnyUuidOf } from '../../db/any-of.js';
import { patientPhysicians } from '../../db/schema/care.js';
import { archiveItems, itemNotes } from '../../db/schema/archive-items.js';
import { invoices } from '../../db/schema/payments.js';
import { users } from '../../db/schema/users.js';
import type { ActorFacts } from '../../lib/actor.js';

/**
 * Every access query of the archive, and nothing else: only access.policy.ts imports this file
 * (the boundary rules of .dependency-cruiser.mjs enforce it).
 *
 * The rules are written against archive items — an item's id, its patient, and the invoices
 * naming it — whatever the item is: a raster image or a DICOM study (kind 'study', its series and
 * instances hanging off the item id), so a study inherits every rule here by being an archive
 * item: lists, reads, notes, invoices and the paid-invoice rule apply to it unchanged.
 */
const NOTHING = sql`false`;

/** Only a paid invoice grants access (docs/security.md §3): an open or void one grants nothing. */
const isGrantingInvoice = eq(invoices.status, 'paid');

/** The archive items a radiologist has been paid for: the one place the paid-invoice rule is written. */
function itemsPaidTo(radiologistId: string): SQL {
  return sql`select ${invoices.itemId} from ${invoices} where ${invoices.radiologistId} = ${radiologistId} and ${isGrantingInvoice}`;
}

/** The patients a physician is linked to (a patient has at most one physician). */
function patientsOfPhysician(physicianId: string): SQL {
  return sql`select ${patientPhysicians.patientId} from ${patientPhysicians} where ${patientPhysicians.physicianId} = ${physicianId}`;
}

/**
 * Condition on a column of patient ids: the patients whose records the actor may read — the
 * patient themself, their physician, and a radiologist who may read at least one of their items.
 */
export function patientReadableBy(actor: ActorFacts, patientId: SQLWrapper): SQL {
  // An address nobody has proved could be anyone's: such accounts see no patient data at all.
  if (!actor.emailVerified) {
    return NOTHING;
  }
  switch (actor.role) {
    case 'PATIENT':
      return sql`${patientId} = ${actor.id}`;
    case 'PHYSICIAN':
      return sql`${patientId} in (${patientsOfPhysician(actor.id)})`;
    case 'RADIOLOGIST':
      return sql`${patientId} in (select ${archiveItems.patientId} from ${archiveItems} where ${archiveItems.id} in (${itemsPaidTo(actor.id)}))`;
  }
}

/** Condition on archive-item rows: the items the actor may read. */
export function itemReadableBy(actor: ActorFacts): SQL {
  if (!actor.emailVerified) {
    return NOTHING;
  }
  switch (actor.role) {
    // The patient and their physician see the whole record.
    case 'PATIENT':
    case 'PHYSICIAN':
      return patientReadableBy(actor, archiveItems.patientId);
    // A radiologist sees exactly the items they were paid for, not the rest of the record.
    case 'RADIOLOGIST':
      return sql`${archiveItems.id} in (${itemsPaidTo(actor.id)})`;
  }
}

/** The items waiting in the actor's Incoming list: received by them, a physician, without a patient. */
export function receivedBy(actor: ActorFacts): SQL {
  if (!actor.emailVerified || actor.role !== 'PHYSICIAN') {
    return NOTHING;
  }
  return sql`(${archiveItems.patientId} is null and ${archiveItems.receiverId} = ${actor.id})`;
}

/** The one item `itemId`. */
export function itemIs(itemId: string): SQL {
  return sql`${archiveItems.id} = ${itemId}`;
}

/** itemReadableBy, and the actor's own items waiting in their Incoming list. */
export function itemOrReceivedReadableBy(actor: ActorFacts): SQL {
  return sql`(${itemReadableBy(actor)} or ${receivedBy(actor)})`;
}

/** Of `itemIds` (valid UUIDs), those the actor may read. */
export async function readableItemIds(
  db: Queryable,
  actor: ActorFacts,
  itemIds: string[],
): Promise<Set<string>> {
  const rows = await db
    .select({ id: archiveItems.id })
    .from(archiveItems)
    .where(and(isAnyUuidOf(archiveItems.id, itemIds), itemReadableBy(actor)));
  return new Set(rows.map((row) => row.id));
}

/** Whether the actor may read this item (a valid UUID) and it is filed under this patient. */
export async function isReadableItemOf(
  db: Queryable,
  actor: ActorFacts,
  itemId: string,
  patientId: string,
): Promise<boolean> {
  const rows = await db
    .select({ id: archiveItems.id })
    .from(archiveItems)
    .where(and(eq(archiveItems.id, itemId), eq(archiveItems.patientId, patientId), itemReadableBy(actor)));
  return rows.length > 0;
}

/** Of `patientIds` (valid UUIDs), the patient accounts whose records the actor may read. */
export async function readablePatientIds(
  db: Queryable,
  actor: ActorFacts,
  patientIds: string[],
): Promise<Set<string>> {
  const rows = await db
    .select({ id: users.id })
    .from(users)
    .where(
      and(isAnyUuidOf(users.id, patientIds), eq(users.role, 'PATIENT'), patientReadableBy(actor, users.id)),
    );
  return new Set(rows.map((row) => row.id));
}

/** Whether the radiologist has an open (unpaid) invoice for the item: the "wait for payment" case of a note. */
export async function hasOpenInvoiceFor(
  db: Queryable,
  radiologistId: string,
  itemId: string,
): Promise<boolean> {
  const [row] = await db
    .select({ id: invoices.id })
    .from(invoices)
    .where(
      and(
        eq(invoices.itemId, itemId),
        eq(invoices.radiologistId, radiologistId),
        eq(invoices.status, 'open'),
      ),
    )
    .limit(1);
  return row !== undefined;
}

/** The people who may read a patient's record besides the patient: their physician and paid radiologists. */
export async function staffWithAccessTo(
  db: Queryable,
  patientId: string,
): Promise<{ physicianId: string | undefined; radiologistIds: string[] }> {
  const [physician] = await db
    .select({ id: patientPhysicians.physicianId })
    .from(patientPhysicians)
    .where(eq(patientPhysicians.patientId, patientId));
  const radiologists = await db
    .selectDistinct({ id: invoices.radiologistId })
    .from(invoices)
    .innerJoin(archiveItems, eq(archiveItems.id, invoices.itemId))
    .where(and(eq(archiveItems.patientId, patientId), isGrantingInvoice));
  return { physicianId: physician?.id, radiologistIds: radiologists.map((row) => row.id) };
}

/** Whether the radiologist has written a note on an item of this patient that they were paid to review. */
export async function hasReviewedPaidItem(
  db: Queryable,
  radiologistId: string,
  patientId: string,
): Promise<boolean> {
  const [row] = await db
    .select({ id: itemNotes.id })
    .from(itemNotes)
    .innerJoin(archiveItems, eq(archiveItems.id, itemNotes.itemId))
    .where(
      and(
        eq(itemNotes.authorId, radiologistId),
        eq(archiveItems.patientId, patientId),
        sql`${archiveItems.id} in (${itemsPaidTo(radiologistId)})`,
      ),
    )
    .limit(1);
  return row !== undefined;
}

/** The radiologists whose analysis the item has: a note of theirs that is not empty. */
export async function analystsOf(db: Queryable, itemId: string): Promise<string[]> {
  const rows = await db
    .select({ authorId: itemNotes.authorId })
    .from(itemNotes)
    .where(
      and(
        eq(itemNotes.itemId, itemId),
        eq(itemNotes.authorRole, 'RADIOLOGIST'),
        sql`${itemNotes.note} <> ''`,
      ),
    );
  return rows.map((row) => row.authorId);
}

/**
 * Condition on note rows of items the actor may read: whose notes they see. The physician's
 * note is the clinical question and travels with the item to everyone who reads it; a
 * radiologist's note is their opinion, seen by the patient and the physician who asked for it and
 * by its author, and never by another radiologist, so that each opinion stays independent.
 */
export function noteReadableBy(actor: ActorFacts): SQL {
  if (actor.role !== 'RADIOLOGIST') {
    return sql`true`;
  }
  return sql`(${itemNotes.authorRole} = 'PHYSICIAN' or ${itemNotes.authorId} = ${actor.id})`;
}

/**
 * Condition on user rows: whose profile pictures the actor (undefined: someone not signed in)
 * may see. Physicians and radiologists present themselves to patients, so their pictures are
 * public; a patient's picture is part of their record and follows its readers.
 */
export function pictureReadableBy(actor: ActorFacts | undefined): SQL {
  const isStaff = inArray(users.role, ['PHYSICIAN', 'RADIOLOGIST']);
  return actor ? sql`(${isStaff} or ${patientReadableBy(actor, users.id)})` : isStaff;
}

/** Of `userIds` (valid UUIDs), the people whose pictures the actor may see. */
export async function usersWithPictureReadableBy(
  db: Queryable,
  actor: ActorFacts,
  userIds: string[],
): Promise<Set<string>> {
  const rows = await db
    .select({ id: users.id })
    .from(users)
    .where(and(isAnyUuidOf(users.id, userIds), pictureReadableBy(actor)));
  return new Set(rows.map((row) => row.id));
}
