import crypto from 'node:crypto';
import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { createTestApp, type TestApp } from '../../../test/test-app.js';
import {
  bearer,
  createPatient,
  createPhysician,
  createRadiologist,
  signIn,
} from '../../../test/factories.js';
import { archiveItems } from '../../db/schema/archive-items.js';
import { notifications } from '../../db/schema/notifications.js';
import { invoices } from '../../db/schema/payments.js';

const WEBHOOK_SECRET = 'whsec_offline_test_secret';
const stripe = new Stripe('sk_test_offline');
let t: TestApp;

beforeAll(async () => {
  t = await createTestApp({ STRIPE_SECRET_KEY: 'sk_test_offline', STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET });
});
afterAll(() => t.close());

/** An open Stripe invoice as if created through Stripe (no network here). */
async function openStripeInvoice() {
  const db = t.database.db;
  const patient = await createPatient(db);
  const physician = await createPhysician(db);
  const radiologist = await createRadiologist(db);
  const [image] = await db
    .insert(archiveItems)
    .values({
      patientId: patient.id,
      uploaderId: physician.id,
      storageKey: 'images/x.png',
      contentType: 'image/png',
      size: 1,
      width: 1,
      height: 1,
    })
    .returning();
  const providerRef = `in_${crypto.randomUUID().replaceAll('-', '')}`;
  const [invoice] = await db
    .insert(invoices)
    .values({
      patientId: patient.id,
      radiologistId: radiologist.id,
      itemId: image!.id,
      amountCents: 15000,
      provider: 'stripe',
      providerRef,
      url: 'https://invoice.stripe.com/i/test',
    })
    .returning();
  return { patient, radiologist, invoice: invoice!, providerRef };
}

function event(type: string, providerRef: string) {
  return JSON.stringify({
    id: `evt_${crypto.randomUUID().replaceAll('-', '')}`,
    object: 'event',
    type,
    data: { object: { id: providerRef, object: 'invoice' } },
  });
}

function deliver(payload: string, signature: string) {
  return t.app.inject({
    method: 'POST',
    url: '/api/payment/webhook/stripe',
    headers: { 'content-type': 'application/json', 'stripe-signature': signature },
    payload,
  });
}

const sign = (payload: string, timestamp?: number) =>
  stripe.webhooks.generateTestHeaderString({ payload, secret: WEBHOOK_SECRET, timestamp });

async function statusOf(id: string) {
  const [row] = await t.database.db.select().from(invoices).where(eq(invoices.id, id));
  return row!.status;
}

describe('Stripe webhook', () => {
  it('refuses a tampered, a stale and an unsigned event', async () => {
    const { invoice, providerRef } = await openStripeInvoice();
    const payload = event('invoice.paid', providerRef);
    const tampered = await deliver(payload.replace('invoice.paid', 'invoice.voided'), sign(payload));
    expect(tampered.statusCode).toBe(400);
    expect(tampered.json().errors[0].msg).toBe('The webhook signature is not valid.');
    const stale = await deliver(payload, sign(payload, Math.floor(Date.now() / 1000) - 3600));
    expect(stale.statusCode).toBe(400);
    expect((await deliver(payload, '')).statusCode).toBe(400);
    expect(await statusOf(invoice.id)).toBe('open');
  });

  it('marks an invoice paid once, however often the event arrives', async () => {
    const { invoice, providerRef, radiologist, patient } = await openStripeInvoice();
    const payload = event('invoice.paid', providerRef);
    const first = await deliver(payload, sign(payload));
    expect(first.statusCode).toBe(200);
    expect(first.body).toBe('{"received":true}');
    expect(await statusOf(invoice.id)).toBe('paid');
    expect((await deliver(payload, sign(payload))).statusCode).toBe(200);
    const toRadiologist = await t.database.db
      .select()
      .from(notifications)
      .where(eq(notifications.userId, radiologist.id));
    expect(toRadiologist).toHaveLength(1);
    expect(toRadiologist[0]!.message).toBe(
      `${patient.firstName} ${patient.lastName} has requested your opinion.`,
    );
  });

  it('voids an invoice on invoice.voided', async () => {
    const { invoice, providerRef } = await openStripeInvoice();
    const payload = event('invoice.voided', providerRef);
    expect((await deliver(payload, sign(payload))).statusCode).toBe(200);
    expect(await statusOf(invoice.id)).toBe('void');
  });

  it('has no sandbox payment while Stripe is configured', async () => {
    const { invoice, patient } = await openStripeInvoice();
    const { token } = await signIn(t.app, patient.email);
    const response = await t.app.inject({
      method: 'POST',
      url: `/api/payment/sandbox/${invoice.id}/pay`,
      headers: bearer(token),
    });
    expect(response.statusCode).toBe(404);
  });
});
