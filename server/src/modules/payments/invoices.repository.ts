import { and, desc, eq, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Queryable } from '../../db/client.js';
import { invoices } from '../../db/schema/payments.js';
import { users } from '../../db/schema/users.js';

const radiologist = alias(users, 'radiologist');
const patient = alias(users, 'patient');

function selectInvoices(db: Queryable) {
  return db
    .select({
      id: invoices.id,
      patientId: invoices.patientId,
      itemId: invoices.itemId,
      amountCents: invoices.amountCents,
      status: invoices.status,
      provider: invoices.provider,
      providerRef: invoices.providerRef,
      url: invoices.url,
      createdAt: invoices.createdAt,
      radiologistId: radiologist.id,
      radiologistTitle: radiologist.title,
      radiologistFirstName: radiologist.firstName,
      radiologistLastName: radiologist.lastName,
      patientFirstName: patient.firstName,
      patientLastName: patient.lastName,
    })
    .from(invoices)
    .innerJoin(radiologist, eq(radiologist.id, invoices.radiologistId))
    .innerJoin(patient, eq(patient.id, invoices.patientId));
}

export type InvoiceRow = NonNullable<Awaited<ReturnType<typeof findInvoice>>>;

export async function findInvoice(db: Queryable, id: string) {
  const [row] = await selectInvoices(db).where(eq(invoices.id, id));
  return row;
}

export async function findInvoiceByProviderRef(db: Queryable, providerRef: string) {
  const [row] = await selectInvoices(db).where(eq(invoices.providerRef, providerRef));
  return row;
}

export function listInvoicesOfPatient(
  db: Queryable,
  patientId: string,
  page: { limit: number; after?: [string, string] },
) {
  const after = page.after
    ? sql`(${invoices.createdAt}, ${invoices.id}) < (${page.after[0]}::timestamptz, ${page.after[1]}::uuid)`
    : undefined;
  return selectInvoices(db)
    .where(and(eq(invoices.patientId, patientId), after))
    .orderBy(desc(invoices.createdAt), desc(invoices.id))
    .limit(page.limit);
}

export async function hasOpenInvoice(db: Queryable, patientId: string): Promise<boolean> {
  const [row] = await db
    .select({ id: invoices.id })
    .from(invoices)
    .where(and(eq(invoices.patientId, patientId), eq(invoices.status, 'open')))
    .limit(1);
  return row !== undefined;
}

export async function insertInvoice(db: Queryable, invoice: typeof invoices.$inferInsert) {
  await db.insert(invoices).values(invoice);
}

export async function setProviderDetails(
  db: Queryable,
  id: string,
  details: { providerRef: string | null; url: string },
) {
  await db.update(invoices).set(details).where(eq(invoices.id, id));
}

export async function deleteInvoice(db: Queryable, id: string) {
  await db.delete(invoices).where(eq(invoices.id, id));
}

/** Moves an open invoice to `status`; returns whether it was open. */
export async function closeOpenInvoice(db: Queryable, id: string, status: 'paid' | 'void'): Promise<boolean> {
  const now = new Date();
  const rows = await db
    .update(invoices)
    .set(status === 'paid' ? { status, paidAt: now } : { status, voidedAt: now })
    .where(and(eq(invoices.id, id), eq(invoices.status, 'open')))
    .returning({ id: invoices.id });
  return rows.length > 0;
}

/** The invoice naming this radiologist for this image that is open or paid, if any. */
export async function findLiveInvoiceFor(db: Queryable, imageId: string, radiologistId: string) {
  const [row] = await db
    .select({ id: invoices.id, status: invoices.status })
    .from(invoices)
    .where(
      and(
        eq(invoices.itemId, imageId),
        eq(invoices.radiologistId, radiologistId),
        sql`${invoices.status} in ('open', 'paid')`,
      ),
    )
    .limit(1);
  return row;
}

/** The radiologist's paid invoices with their patients' names, oldest paid first. */
export function listPaidInvoicesOf(db: Queryable, radiologistId: string) {
  const paidAt = sql<Date>`coalesce(${invoices.paidAt}, ${invoices.createdAt})`.mapWith(invoices.paidAt);
  return db
    .select({
      id: invoices.id,
      itemId: invoices.itemId,
      patientId: invoices.patientId,
      paidAt,
      patientTitle: patient.title,
      patientFirstName: patient.firstName,
      patientLastName: patient.lastName,
    })
    .from(invoices)
    .innerJoin(patient, eq(patient.id, invoices.patientId))
    .where(and(eq(invoices.radiologistId, radiologistId), eq(invoices.status, 'paid')))
    .orderBy(paidAt, invoices.id);
}
