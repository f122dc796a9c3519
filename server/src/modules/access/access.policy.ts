import type { SQL, SQLWrapper } from 'drizzle-orm';
import { z } from 'zod';
import { ERROR_BODIES } from '@ra/shared';
import type { AppContext } from '../../context.js';
import { groupedKey } from '../../db/shared-cache.js';
import { AppError, Refusal } from '../../lib/errors.js';
import type { ActorFacts } from '../../lib/actor.js';
import * as repo from './access.repository.js';

/**
 * Who may see or change what: every such decision of the archive is made here, batched, on top of
 * the queries of access.repository.ts. Services ask before they read or write; repositories of
 * other modules receive the list filters below as plain conditions and never decide themselves.
 *
 * - 'image'   an archive item (an image today, a DICOM study next: see access.repository.ts)
 * - 'patient' a patient's record: their item lists and patient card
 * - 'profile' a patient's profile: their picture and care team (same readers as the record)
 */
export type AccessKind = 'image' | 'patient' | 'profile';

const isUuid = (value: string) => z.uuid().safeParse(value).success;

/** Of `ids`, those the user may read, in one query whatever their number. */
export async function canRead(
  ctx: AppContext,
  user: ActorFacts,
  kind: AccessKind,
  ids: readonly string[],
): Promise<Set<string>> {
  // Malformed ids name nothing; dropping them here keeps them out of the SQL.
  const candidates = [...new Set(ids.filter(isUuid))];
  if (candidates.length === 0) {
    return new Set();
  }
  switch (kind) {
    case 'image':
      return repo.readableItemIds(ctx.db, user, candidates);
    case 'patient':
    case 'profile':
      return repo.readablePatientIds(ctx.db, user, candidates);
  }
}

/**
 * Throws NOT_FOUND unless the user may read every one of `ids`: a record the caller may not see
 * answers exactly like one that does not exist, so ids cannot be probed.
 */
export async function requireRead(
  ctx: AppContext,
  user: ActorFacts,
  kind: AccessKind,
  ids: readonly string[],
): Promise<void> {
  const allowed = await canRead(ctx, user, kind, ids);
  if (ids.length === 0 || ids.some((id) => !allowed.has(id))) {
    throw new AppError('NOT_FOUND');
  }
}

/**
 * Throws NOT_FOUND unless the user may ask for this patient's item list: anyone who may read the
 * patient, and the patient themself even when unverified — who then gets an empty list (an empty
 * archive, docs/security.md §4) from `itemReadFilter`, not an error.
 */
export async function requireListOf(ctx: AppContext, user: ActorFacts, patientId: string): Promise<void> {
  if (user.role === 'PATIENT' && user.id === patientId) {
    return;
  }
  await requireRead(ctx, user, 'patient', [patientId]);
}

/** Condition on archive-item rows for list and count queries: the items the user may read. */
export function itemReadFilter(user: ActorFacts): SQL {
  return repo.itemReadableBy(user);
}

/**
 * Condition on archive-item rows for DICOMweb: the items the user may read, and a physician's
 * studies waiting in their Incoming list (received without a patient), which nothing else lists.
 */
export function dicomReadFilter(user: ActorFacts): SQL {
  return repo.itemOrReceivedReadableBy(user);
}

/** Condition on archive-item rows: the studies waiting in the user's Incoming list. */
export function receivedItemFilter(user: ActorFacts): SQL {
  return repo.receivedBy(user);
}

/** Condition on a column of patient ids for list queries: the patients the user may read. */
export function patientReadFilter(user: ActorFacts, patientId: SQLWrapper): SQL {
  return repo.patientReadableBy(user, patientId);
}

/**
 * A decision about one patient's record, kept in `ctx.accessDecisions` under the patient: the
 * triggers of migration 0018 announce the patient whenever anything the decision reads changes
 * (their physician, their items, the invoices and notes on them, their account), and the entry is
 * dropped as that commits. What the actor is (id, role, verified address) is part of the key.
 */
function decidedFor(
  ctx: AppContext,
  user: ActorFacts,
  patientId: string,
  question: string[],
  decide: () => Promise<boolean>,
): Promise<boolean> {
  // Triggers name a patient by the canonical (lower-case) form of their id.
  const key = groupedKey(patientId.toLowerCase(), ...question, user.id, user.role, user.emailVerified);
  return ctx.accessDecisions.getOrLoad(key, decide).then((decision) => decision === true);
}

/** Who may add items to a patient's record: their physician, or a radiologist the patient has paid. */
export async function canUploadFor(ctx: AppContext, user: ActorFacts, patientId: string): Promise<boolean> {
  // Patients never add to their own record; staff add exactly where they may read.
  if (user.role === 'PATIENT' || !isUuid(patientId)) {
    return false;
  }
  return decidedFor(ctx, user, patientId, ['upload', patientId], async () =>
    (await canRead(ctx, user, 'patient', [patientId])).has(patientId),
  );
}

/**
 * Refuses anyone who may not store in the archive at all: patients (403, as for any staff route)
 * and accounts whose address is not confirmed (403 asking them to confirm it: an address nobody
 * has proved could be anyone's, and such an account could fill the archive).
 */
export function requireStorer(user: ActorFacts): void {
  const refusal = storeRefusalOf(user);
  if (refusal === 'forbidden') {
    throw new AppError('FORBIDDEN');
  }
  if (refusal === 'unverified') {
    throw new Refusal(403, ERROR_BODIES.unverified.error);
  }
}

/** Why the user may not store in the archive ('forbidden': a patient; 'unverified'), or undefined. */
export function storeRefusalOf(user: ActorFacts): 'forbidden' | 'unverified' | undefined {
  if (user.role === 'PATIENT') {
    return 'forbidden';
  }
  return user.emailVerified ? undefined : 'unverified';
}

/**
 * Whether the user may add instances to a study already filed under `patientId`: only someone who
 * may read it (a radiologist paid for one study of a patient adds nothing to the patient's other
 * studies). An item that is not the patient's is refused.
 */
export async function canAddToStudy(
  ctx: AppContext,
  user: ActorFacts,
  study: { itemId: string; patientId: string },
): Promise<boolean> {
  const { itemId, patientId } = study;
  if (user.role === 'PATIENT' || !isUuid(itemId) || !isUuid(patientId)) {
    return false;
  }
  return decidedFor(ctx, user, patientId, ['add', itemId], () =>
    repo.isReadableItemOf(ctx.db, user, itemId, patientId),
  );
}

/**
 * Whether the user may write their note on an item: the patient's physician, or a radiologist
 * whose invoice for it is paid. 'unpaid' is a radiologist whose invoice is still open (409, not
 * 404: the radiologist knows of the request). 'none' is answered as NOT_FOUND.
 */
export async function noteAccess(
  ctx: AppContext,
  user: ActorFacts,
  itemId: string,
): Promise<'allowed' | 'unpaid' | 'none'> {
  if (user.role === 'PATIENT') {
    return 'none';
  }
  if ((await canRead(ctx, user, 'image', [itemId])).has(itemId)) {
    return 'allowed';
  }
  const isWaitingForPayment =
    user.role === 'RADIOLOGIST' &&
    user.emailVerified &&
    isUuid(itemId) &&
    (await repo.hasOpenInvoiceFor(ctx.db, user.id, itemId));
  return isWaitingForPayment ? 'unpaid' : 'none';
}

/** A patient may ask for a second opinion on their own items only (the only items they can read). */
export async function canRequestOpinion(ctx: AppContext, user: ActorFacts, itemId: string): Promise<boolean> {
  return user.role === 'PATIENT' && (await canRead(ctx, user, 'image', [itemId])).has(itemId);
}

/** A patient may rate a radiologist who has written a note on one of their items they were paid for. */
export async function canRate(ctx: AppContext, user: ActorFacts, radiologistId: string): Promise<boolean> {
  if (user.role !== 'PATIENT' || !user.emailVerified) {
    return false;
  }
  return repo.hasReviewedPaidItem(ctx.db, radiologistId, user.id);
}

/**
 * The staff who may read a patient's record (their care team), when the user may read the
 * patient's profile; none otherwise.
 */
export async function careTeamOf(
  ctx: AppContext,
  user: ActorFacts,
  patientId: string,
): Promise<{ physicianId: string | undefined; radiologistIds: string[] }> {
  if (!(await canRead(ctx, user, 'profile', [patientId])).has(patientId)) {
    return { physicianId: undefined, radiologistIds: [] };
  }
  return repo.staffWithAccessTo(ctx.db, patientId);
}

/**
 * Whose annotations of a readable item the user sees: their own and, for its patient and
 * physician, those of each radiologist once their analysis is written. A radiologist's marks are
 * part of the opinion the patient paid for, shown with it and not while it is in progress;
 * everyone else's stay private to their author (radiologists never see the physician's, so each
 * opinion stays independent). The caller has checked that the user may read the item.
 */
export async function annotationAuthorsFor(
  ctx: AppContext,
  user: ActorFacts,
  itemId: string,
): Promise<string[]> {
  const seesAnalyses = user.role === 'PATIENT' || user.role === 'PHYSICIAN';
  return [user.id, ...(seesAnalyses ? await repo.analystsOf(ctx.db, itemId) : [])];
}
