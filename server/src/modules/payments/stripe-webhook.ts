import type Stripe from 'stripe';
import type { AppContext } from '../../context.js';
import { stripeEvents } from '../../db/schema/payments.js';
import { InvalidInput } from '../../lib/errors.js';
import * as repo from './invoices.repository.js';
import { markInvoicePaid } from './invoices.service.js';

/**
 * Handles one Stripe webhook call: the signature is checked over the raw body (stale or
 * tampered events are refused), and each event id is recorded in the same transaction as its
 * effect, so a replayed event changes nothing.
 */
export async function handleStripeWebhook(
  ctx: AppContext,
  stripe: Stripe,
  webhookSecret: string,
  rawBody: Buffer,
  signature: string | undefined,
): Promise<void> {
  let event: Stripe.Event;
  try {
    event = stripe.webhooks.constructEvent(rawBody, signature ?? '', webhookSecret);
  } catch {
    throw new InvalidInput('stripe-signature', 'The webhook signature is not valid.');
  }
  await ctx.db.transaction(async (tx) => {
    const isNew =
      (
        await tx
          .insert(stripeEvents)
          .values({ id: event.id, type: event.type })
          .onConflictDoNothing()
          .returning()
      ).length > 0;
    if (!isNew || (event.type !== 'invoice.paid' && event.type !== 'invoice.voided')) {
      return;
    }
    const stripeInvoice = event.data.object;
    const row = stripeInvoice.id ? await repo.findInvoiceByProviderRef(tx, stripeInvoice.id) : undefined;
    if (!row || row.status !== 'open') {
      return;
    }
    if (event.type === 'invoice.paid') {
      await markInvoicePaid(ctx, tx, row.id);
    } else {
      await repo.closeOpenInvoice(tx, row.id, 'void');
    }
  });
}
