export interface ProviderInvoiceInput {
  invoiceId: string;
  customer: { id: string; email: string; name: string };
  amountCents: number;
  description: string;
}

/**
 * Where patients pay. The sandbox is the default (its page lives in this app); Stripe is used
 * when STRIPE_SECRET_KEY is set. Both end in the same `markInvoicePaid`.
 */
export interface PaymentProvider {
  name: 'sandbox' | 'stripe';
  createInvoice(input: ProviderInvoiceInput): Promise<{ providerRef: string | null; url: string }>;
  voidInvoice(providerRef: string | null): Promise<void>;
}
