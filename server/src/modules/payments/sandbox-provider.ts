import type { PaymentProvider } from './payment-provider.js';

/** Test payments: the invoice's page is this app's /pay/<uid>; no money moves. */
export const sandboxProvider: PaymentProvider = {
  name: 'sandbox',
  createInvoice: ({ invoiceId }) => Promise.resolve({ providerRef: null, url: `/pay/${invoiceId}` }),
  voidInvoice: () => Promise.resolve(),
};
