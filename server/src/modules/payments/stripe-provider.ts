import Stripe from 'stripe';
import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { stripeCustomers } from '../../db/schema/payments.js';
import type { PaymentProvider } from './payment-provider.js';

/** Hosted Stripe invoices: one customer per patient, one invoice per second opinion. */
export function stripeProvider(stripe: Stripe, db: Db): PaymentProvider {
  async function customerFor(customer: { id: string; email: string; name: string }): Promise<string> {
    const [known] = await db.select().from(stripeCustomers).where(eq(stripeCustomers.userId, customer.id));
    if (known) {
      return known.customerId;
    }
    const created = await stripe.customers.create(
      { email: customer.email, name: customer.name, metadata: { user_id: customer.id } },
      { idempotencyKey: `customer-${customer.id}` },
    );
    await db
      .insert(stripeCustomers)
      .values({ userId: customer.id, customerId: created.id })
      .onConflictDoNothing();
    return created.id;
  }

  return {
    name: 'stripe',
    async createInvoice({ invoiceId, customer, amountCents, description }) {
      const customerId = await customerFor(customer);
      const invoice = await stripe.invoices.create(
        {
          customer: customerId,
          collection_method: 'send_invoice',
          days_until_due: 7,
          metadata: { invoice_id: invoiceId },
        },
        { idempotencyKey: `invoice-${invoiceId}` },
      );
      await stripe.invoiceItems.create(
        { customer: customerId, invoice: invoice.id, amount: amountCents, currency: 'usd', description },
        { idempotencyKey: `item-${invoiceId}` },
      );
      const finalized = await stripe.invoices.finalizeInvoice(invoice.id);
      return { providerRef: finalized.id, url: finalized.hosted_invoice_url ?? '' };
    },
    async voidInvoice(providerRef) {
      if (providerRef) {
        await stripe.invoices.voidInvoice(providerRef);
      }
    },
  };
}
