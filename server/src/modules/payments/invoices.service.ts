import crypto from 'node:crypto';
import { displayName, type Invoice, type InvoiceDetail, isUuid, type ItemSummary, PATHS } from '@ra/shared';
import type { AppContext } from '../../context.js';
import type { Queryable } from '../../db/client.js';
import { decodeCursor, encodeCursor } from '../../lib/cursor.js';
import { uniqueViolationOf } from '../../lib/db-errors.js';
import { AppError, RuleViolation } from '../../lib/errors.js';
import { centsToDollars } from '../../lib/money.js';
import type { Actor } from '../../lib/actor.js';
import { may, requirePermitted } from '../access/index.js';
import { auditChange } from '../audit/index.js';
import { summarizeItems, thumbnailUrlOf } from '../archive-items/index.js';
import { notify } from '../notifications/index.js';
import { findRadiologist } from '../users/index.js';
import * as repo from './invoices.repository.js';

const UNPAID_INVOICES =
  'You have unpaid invoices. Please pay or cancel them before requesting another opinion.';
const ALREADY_INVOICED = 'Image already has an invoice for this radiologist.';
const ALREADY_PAID = 'This invoice has already been paid.';
const CANCELLED = 'This invoice was cancelled.';

/** Invoice rows as the patient sees them, each with the item it is for (one query for all). */
async function toWireInvoices(ctx: AppContext, patient: Actor, rows: repo.InvoiceRow[]): Promise<Invoice[]> {
  const items = await summarizeItems(
    ctx,
    patient,
    rows.map((row) => row.itemId),
  );
  return rows.map((row) => toWireInvoice(row, items.get(row.itemId) ?? null));
}

async function toWireInvoiceOf(ctx: AppContext, patient: Actor, row: repo.InvoiceRow): Promise<Invoice> {
  return (await toWireInvoices(ctx, patient, [row]))[0]!;
}

function toWireInvoice(row: repo.InvoiceRow, item: ItemSummary | null): Invoice {
  return {
    uid: row.id,
    url: row.url,
    createdAt: row.createdAt.toISOString(),
    amount: centsToDollars(row.amountCents),
    paid: row.status === 'paid',
    status: row.status,
    radiologist: {
      uid: row.radiologistId,
      title: row.radiologistTitle,
      first_name: row.radiologistFirstName,
      last_name: row.radiologistLastName,
    },
    image_uid: row.itemId,
    item,
  };
}

export async function createInvoice(
  ctx: AppContext,
  patient: Actor,
  radiologistUid: string,
  imageUid: string,
): Promise<Invoice> {
  const radiologist = await findRadiologist(ctx, radiologistUid);
  if (!radiologist) {
    throw new AppError('NOT_FOUND');
  }
  // A patient can read only their own images, so a readable image is one of theirs.
  if (!(await may(ctx, patient, 'opinion:request', imageUid))) {
    throw new AppError('NOT_FOUND');
  }
  if (await repo.hasOpenInvoice(ctx.db, patient.id)) {
    throw new RuleViolation(UNPAID_INVOICES);
  }
  if (await repo.findLiveInvoiceFor(ctx.db, imageUid, radiologist.id)) {
    throw new RuleViolation(ALREADY_INVOICED);
  }
  const id = crypto.randomUUID();
  try {
    // The partial unique indexes settle two simultaneous requests: one insert wins.
    await repo.insertInvoice(ctx.db, {
      id,
      patientId: patient.id,
      radiologistId: radiologist.id,
      itemId: imageUid,
      amountCents: radiologist.feeCents,
      provider: ctx.payments.name,
      url: '',
    });
  } catch (err) {
    const constraint = uniqueViolationOf(err);
    if (constraint === undefined) {
      throw err;
    }
    throw new RuleViolation(
      constraint === 'invoices_one_open_per_patient' ? UNPAID_INVOICES : ALREADY_INVOICED,
    );
  }
  try {
    const details = await ctx.payments.createInvoice({
      invoiceId: id,
      customer: {
        id: patient.id,
        email: patient.email,
        name: displayName({
          title: patient.title,
          first_name: patient.firstName,
          last_name: patient.lastName,
        }),
      },
      amountCents: radiologist.feeCents,
      description: `Second opinion by ${displayName({ title: radiologist.title, first_name: radiologist.firstName, last_name: radiologist.lastName })}`,
    });
    await repo.setProviderDetails(ctx.db, id, details);
  } catch (err) {
    await repo.deleteInvoice(ctx.db, id);
    throw err;
  }
  return toWireInvoiceOf(ctx, patient, (await repo.findInvoice(ctx.db, id))!);
}

export async function listInvoices(
  ctx: AppContext,
  patient: Actor,
  page: { limit: number; cursor?: string },
): Promise<{ data: Invoice[]; next_cursor: string | null }> {
  const after = decodeCursor(page.cursor, 2) as [string, string] | undefined;
  // Invoices name the patient's images: an account that may not read its own record sees none.
  if (!(await may(ctx, patient, 'patient:read', patient.id))) {
    return { data: [], next_cursor: null };
  }
  const rows = await repo.listInvoicesOfPatient(ctx.db, patient.id, { limit: page.limit + 1, after });
  const pageRows = rows.slice(0, page.limit);
  const last = pageRows.at(-1);
  return {
    data: await toWireInvoices(ctx, patient, pageRows),
    next_cursor:
      rows.length > page.limit && last ? encodeCursor([last.createdAt.toISOString(), last.id]) : null,
  };
}

async function findOwnInvoice(ctx: AppContext, patient: Actor, id: string): Promise<repo.InvoiceRow> {
  await requirePermitted(ctx, patient, 'patient:read', [patient.id]);
  const row = isUuid(id) ? await repo.findInvoice(ctx.db, id) : undefined;
  if (!row || row.patientId !== patient.id) {
    throw new AppError('NOT_FOUND');
  }
  return row;
}

export async function getInvoiceDetail(ctx: AppContext, patient: Actor, id: string): Promise<InvoiceDetail> {
  const row = await findOwnInvoice(ctx, patient, id);
  return {
    invoice: await toWireInvoiceOf(ctx, patient, row),
    thumbnail_url: await thumbnailUrlOf(ctx, patient, row.itemId),
    provider: row.provider,
  };
}

export async function cancelInvoice(ctx: AppContext, patient: Actor, id: string): Promise<void> {
  const row = await findOwnInvoice(ctx, patient, id);
  if (row.status === 'paid') {
    throw new RuleViolation(ALREADY_PAID);
  }
  if (row.status === 'open') {
    await ctx.payments.voidInvoice(row.providerRef);
    await repo.closeOpenInvoice(ctx.db, id, 'void');
  }
}

/**
 * The one way an invoice becomes paid, for the sandbox button and for Stripe's webhook alike:
 * status, access (derived from the paid invoice) and both notifications in one transaction.
 */
export async function markInvoicePaid(ctx: AppContext, db: Queryable, id: string): Promise<void> {
  const isNowPaid = await repo.closeOpenInvoice(db, id, 'paid');
  const row = (await repo.findInvoice(db, id))!;
  if (!isNowPaid) {
    throw new RuleViolation(row.status === 'paid' ? ALREADY_PAID : CANCELLED);
  }
  await notify(
    db,
    {
      userId: row.radiologistId,
      message: `${row.patientFirstName} ${row.patientLastName} has requested your opinion.`,
      to: PATHS.patients,
    },
    { userId: row.patientId, message: 'Your payment was received.', to: PATHS.invoices },
  );
  await auditChange(db, {
    actorId: row.patientId,
    patientId: row.patientId,
    action: 'update',
    recordType: 'patient',
    recordId: `invoice:${id}`,
    ip: null,
  });
}

export async function payWithSandbox(ctx: AppContext, patient: Actor, id: string): Promise<Invoice> {
  const row = await findOwnInvoice(ctx, patient, id);
  if (ctx.payments.name !== 'sandbox' || row.provider !== 'sandbox') {
    throw new AppError('NOT_FOUND');
  }
  await ctx.db.transaction((tx) => markInvoicePaid(ctx, tx, id));
  return toWireInvoiceOf(ctx, patient, (await repo.findInvoice(ctx.db, id))!);
}
