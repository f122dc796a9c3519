import type { SQL, SQLWrapper } from 'drizzle-orm';
import { ERROR_BODIES, isUuid, SHARE_NO_DOWNLOAD } from '@ra/shared';
import type { AppContext } from '../../context.js';
import { groupedKey } from '../../db/shared-cache.js';
import { AppError, Refusal } from '../../lib/errors.js';
import type { ActorFacts } from '../../lib/actor.js';
import * as repo from './access.repository.js';

/**
 * Who may do what: every access decision of the archive is made here, batched, on top of the
 * queries of access.repository.ts. Services ask before they read or write; repositories of other
 * modules receive the list filters below as plain conditions and never decide themselves.
 *
 * A decision is a verb on records. Each verb takes ids of one kind of record:
 *
 * | verb               | ids of         | who                                                         |
 * |--------------------|----------------|-------------------------------------------------------------|
 * | `patient:read`     | patients       | the patient, their physician, a radiologist paid for one of their items |
 * | `item:read`        | archive items  | the patient and their physician; a radiologist the items they were paid for |
 * | `item:download`    | archive items  | the readers of the item (its files: original, frames, rendered, bulk data) |
 * | `item:store`       | patients       | a verified physician or radiologist who may read the patient |
 * | `item:extend`      | archive items  | a verified physician or radiologist who may read the study |
 * | `note:read`        | archive items  | the readers of the item; whose notes: `noteReadFilter`      |
 * | `note:write`       | archive items  | the physician; a radiologist once paid (`awaitsPayment` tells the unpaid case) |
 * | `annotation:write` | archive items  | the readers of the item, each on their own marks            |
 * | `opinion:request`  | archive items  | the patient, on their own items                             |
 * | `share:create`     | archive items  | the patient and their physician, never a radiologist        |
 * | `rating:write`     | radiologists   | a verified patient whose paid item the radiologist wrote on |
 * | `picture:read`     | users          | anyone for staff; the readers of the patient for a patient  |
 *
 * An account whose address is not confirmed may do none of these.
 *
 * A share link's holder has no account: `requireLinkMay` decides for them, on the one item the link
 * names (`item:read`) and on its ZIP when the patient allowed downloading (`item:download`).
 */
export type Verb =
  | 'patient:read'
  | 'item:read'
  | 'item:download'
  | 'item:store'
  | 'item:extend'
  | 'note:read'
  | 'note:write'
  | 'annotation:write'
  | 'opinion:request'
  | 'share:create'
  | 'rating:write'
  | 'picture:read';

type Ids = string[];
type Decide = (ctx: AppContext, actor: ActorFacts, ids: Ids) => Promise<Set<string>>;

const readableItems: Decide = (ctx, actor, ids) => repo.readableItemIds(ctx.db, actor, ids);
const readablePatients: Decide = (ctx, actor, ids) => repo.readablePatientIds(ctx.db, actor, ids);
const none = () => Promise.resolve(new Set<string>());

/** Staff who may store in the archive may add exactly where they may read. */
const storingOn =
  (decide: Decide): Decide =>
  (ctx, actor, ids) =>
    storeRefusalOf(actor) ? none() : decide(ctx, actor, ids);

const DECISIONS: Record<Verb, Decide> = {
  'patient:read': readablePatients,
  'item:read': readableItems,
  // Files are served to the readers of their item; a signed file URL is only ever issued to them.
  'item:download': readableItems,
  'item:store': storingOn(readablePatients),
  'item:extend': storingOn(readableItems),
  'note:read': readableItems,
  // A radiologist may write once their invoice for the item is paid: exactly when they may read it.
  'note:write': (ctx, actor, ids) => (actor.role === 'PATIENT' ? none() : readableItems(ctx, actor, ids)),
  'annotation:write': readableItems,
  // A patient reads only their own items.
  'opinion:request': (ctx, actor, ids) =>
    actor.role === 'PATIENT' ? readableItems(ctx, actor, ids) : none(),
  'share:create': (ctx, actor, ids) =>
    actor.role === 'RADIOLOGIST' ? none() : readableItems(ctx, actor, ids),
  'rating:write': async (ctx, actor, ids) => {
    if (actor.role !== 'PATIENT' || !actor.emailVerified) {
      return new Set();
    }
    const rated = await Promise.all(ids.map((id) => repo.hasReviewedPaidItem(ctx.db, id, actor.id)));
    return new Set(ids.filter((_, index) => rated[index]));
  },
  'picture:read': (ctx, actor, ids) => repo.usersWithPictureReadableBy(ctx.db, actor, ids),
};

/** Of `ids`, those on which the actor may do `verb`, in one query whatever their number. */
export async function permitted(
  ctx: AppContext,
  actor: ActorFacts,
  verb: Verb,
  ids: readonly string[],
): Promise<Set<string>> {
  // Malformed ids name nothing; dropping them here keeps them out of the SQL.
  const candidates = [...new Set(ids.filter(isUuid))];
  return candidates.length === 0 ? new Set() : DECISIONS[verb](ctx, actor, candidates);
}

/** Whether the actor may do `verb` on the one record `id`. */
export async function may(ctx: AppContext, actor: ActorFacts, verb: Verb, id: string): Promise<boolean> {
  const decide = async () => (await permitted(ctx, actor, verb, [id])).has(id);
  // Storing asks on every STOW-RS request: the answer is kept until the patient's record changes.
  return verb === 'item:store' && isUuid(id) ? decidedFor(ctx, actor, id, [verb, id], decide) : decide();
}

/**
 * A decision about one patient's record, kept in `ctx.accessDecisions` under the patient: the
 * triggers of migration 0018 announce the patient on the change feed's access topic whenever
 * anything the decision reads changes (their physician, their items, the invoices and notes on
 * them, an account's role), and the entry is dropped as that commits. What the actor is (id,
 * role, verified address) is part of the key.
 */
function decidedFor(
  ctx: AppContext,
  actor: ActorFacts,
  patientId: string,
  question: string[],
  decide: () => Promise<boolean>,
): Promise<boolean> {
  // Triggers name a patient by the canonical (lower-case) form of their id.
  const key = groupedKey(patientId.toLowerCase(), ...question, actor.id, actor.role, actor.emailVerified);
  return ctx.accessDecisions.getOrLoad(key, decide).then((decision) => decision === true);
}

/**
 * `item:extend` for a study filed under `patientId`, kept as `may` keeps `item:store`: whether the
 * actor may add instances to it (a radiologist paid for one study of a patient adds nothing to the
 * patient's other studies). An item that is not the patient's is refused.
 */
export async function mayExtendStudy(
  ctx: AppContext,
  actor: ActorFacts,
  study: { itemId: string; patientId: string },
): Promise<boolean> {
  const { itemId, patientId } = study;
  if (storeRefusalOf(actor) || !isUuid(itemId) || !isUuid(patientId)) {
    return false;
  }
  return decidedFor(ctx, actor, patientId, ['item:extend', itemId], () =>
    repo.isReadableItemOf(ctx.db, actor, itemId, patientId),
  );
}

/**
 * Throws NOT_FOUND unless the actor may do `verb` on every one of `ids`: a record the caller may
 * not touch answers exactly like one that does not exist, so ids cannot be probed.
 */
export async function requirePermitted(
  ctx: AppContext,
  actor: ActorFacts,
  verb: Verb,
  ids: readonly string[],
): Promise<void> {
  const allowed = await permitted(ctx, actor, verb, ids);
  if (ids.length === 0 || ids.some((id) => !allowed.has(id))) {
    throw new AppError('NOT_FOUND');
  }
}

/**
 * Throws NOT_FOUND unless the actor may ask for this patient's item list: anyone who may read the
 * patient, and the patient themself even when unverified — who then gets an empty list (an empty
 * archive, docs/security.md §4) from `itemReadFilter`, not an error.
 */
export async function requireListOf(ctx: AppContext, actor: ActorFacts, patientId: string): Promise<void> {
  if (actor.role === 'PATIENT' && actor.id === patientId) {
    return;
  }
  await requirePermitted(ctx, actor, 'patient:read', [patientId]);
}

/** Condition on archive-item rows for list and count queries: the items the actor may read. */
export function itemReadFilter(actor: ActorFacts): SQL {
  return repo.itemReadableBy(actor);
}

/**
 * A condition on archive-item rows and a key naming everything the condition depends on: two
 * scopes with equal keys select the same rows, so what one read may be kept for the other.
 */
export interface ReadScope {
  filter: SQL;
  cacheKey: string;
}

/**
 * DICOMweb's scope for a signed-in actor: the items they may read, and a physician's studies
 * waiting in their Incoming list (received without a patient), which nothing else lists. The
 * condition depends on the actor's id, role and whether their address is verified.
 */
export function dicomReadScope(actor: ActorFacts): ReadScope {
  return {
    filter: repo.itemOrReceivedReadableBy(actor),
    cacheKey: `user:${actor.id}:${actor.role}:${actor.emailVerified}`,
  };
}

/** A share link as access decides on it, once the shares module has checked its token, expiry and code. */
export interface LinkGrant {
  itemId: string;
  allowDownload: boolean;
}

/**
 * What a share link's holder may do with an item: read the one item the link was made for, and
 * download it only when the patient allowed that. NOT_FOUND for any other item; 403 with the
 * reason for a download the link does not allow (only a holder of the token and code sees it).
 */
export function requireLinkMay(link: LinkGrant, verb: 'item:read' | 'item:download', itemId: string): void {
  if (itemId !== link.itemId) {
    throw new AppError('NOT_FOUND');
  }
  if (verb === 'item:download' && !link.allowDownload) {
    throw new Refusal(403, SHARE_NO_DOWNLOAD);
  }
}

/** A share link's DICOMweb scope: the one item the link was made for. */
export function sharedItemScope(link: LinkGrant & { id: string }): ReadScope {
  return { filter: repo.itemIs(link.itemId), cacheKey: `link:${link.id}:${link.itemId}` };
}

/** Condition on archive-item rows: the studies waiting in the actor's Incoming list. */
export function receivedItemFilter(actor: ActorFacts): SQL {
  return repo.receivedBy(actor);
}

/** Condition on a column of patient ids for list queries: the patients the actor may read. */
export function patientReadFilter(actor: ActorFacts, patientId: SQLWrapper): SQL {
  return repo.patientReadableBy(actor, patientId);
}

/** Condition on note rows of items the actor may read (`note:read`): whose notes they see. */
export function noteReadFilter(actor: ActorFacts): SQL {
  return repo.noteReadableBy(actor);
}

/** Condition on user rows (`picture:read`): whose pictures the actor, or someone signed out, may see. */
export function pictureReadFilter(actor: ActorFacts | undefined): SQL {
  return repo.pictureReadableBy(actor);
}

/** Whether anyone may see this person's picture without signing in (physicians and radiologists). */
export function isPublicPictureOf(person: { role: ActorFacts['role'] }): boolean {
  return person.role !== 'PATIENT';
}

/**
 * Refuses anyone who may not store in the archive at all: patients (403, as for any staff route)
 * and accounts whose address is not confirmed (403 asking them to confirm it: an address nobody
 * has proved could be anyone's, and such an account could fill the archive).
 */
export function requireStorer(actor: ActorFacts): void {
  const refusal = storeRefusalOf(actor);
  if (refusal === 'forbidden') {
    throw new AppError('FORBIDDEN');
  }
  if (refusal === 'unverified') {
    throw new Refusal(403, ERROR_BODIES.unverified.error);
  }
}

/** Why the actor may not store in the archive ('forbidden': a patient; 'unverified'), or undefined. */
export function storeRefusalOf(actor: ActorFacts): 'forbidden' | 'unverified' | undefined {
  if (actor.role === 'PATIENT') {
    return 'forbidden';
  }
  return actor.emailVerified ? undefined : 'unverified';
}

/**
 * Whether studies the actor sends without naming a patient may wait in an Incoming list of theirs:
 * only a physician keeps one (a radiologist stores for a patient who paid them, and must say whom).
 */
export function mayReceiveUnfiled(actor: ActorFacts): boolean {
  return actor.role === 'PHYSICIAN';
}

/**
 * Whether `note:write` is refused only because the radiologist's invoice for the item is still
 * open: answered 409 rather than 404, since the radiologist knows of the request.
 */
export async function awaitsPayment(ctx: AppContext, actor: ActorFacts, itemId: string): Promise<boolean> {
  return (
    actor.role === 'RADIOLOGIST' &&
    actor.emailVerified &&
    isUuid(itemId) &&
    repo.hasOpenInvoiceFor(ctx.db, actor.id, itemId)
  );
}

/**
 * The staff who may read a patient's record (their care team), when the actor may read the
 * patient; none otherwise.
 */
export async function careTeamOf(
  ctx: AppContext,
  actor: ActorFacts,
  patientId: string,
): Promise<{ physicianId: string | undefined; radiologistIds: string[] }> {
  if (!(await may(ctx, actor, 'patient:read', patientId))) {
    return { physicianId: undefined, radiologistIds: [] };
  }
  return repo.staffWithAccessTo(ctx.db, patientId);
}

/**
 * Whose annotations of a readable item the actor sees: their own and, for its patient and
 * physician, those of each radiologist once their analysis is written. A radiologist's marks are
 * part of the opinion the patient paid for, shown with it and not while it is in progress;
 * everyone else's stay private to their author (radiologists never see the physician's, so each
 * opinion stays independent). The caller has checked that the actor may read the item.
 */
export async function annotationAuthorsFor(
  ctx: AppContext,
  actor: ActorFacts,
  itemId: string,
): Promise<string[]> {
  const seesAnalyses = actor.role === 'PATIENT' || actor.role === 'PHYSICIAN';
  return [actor.id, ...(seesAnalyses ? await repo.analystsOf(ctx.db, itemId) : [])];
}
