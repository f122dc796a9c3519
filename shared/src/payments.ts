import { z } from 'zod';
import { itemSummarySchema } from './images.js';

export const INVOICE_STATUSES = ['open', 'paid', 'void'] as const;

export const invoiceSchema = z.object({
  uid: z.uuid(),
  url: z.string(),
  createdAt: z.string(),
  /** Dollars, at most 2 decimals. */
  amount: z.number(),
  paid: z.boolean(),
  status: z.enum(INVOICE_STATUSES),
  radiologist: z.object({ uid: z.uuid(), title: z.string(), first_name: z.string(), last_name: z.string() }),
  image_uid: z.uuid(),
  /** The item named by `image_uid`; null only if the patient may no longer read it. */
  item: itemSummarySchema.nullable(),
});
export type Invoice = z.infer<typeof invoiceSchema>;

export const invoiceListSchema = z.object({
  data: z.array(invoiceSchema),
  next_cursor: z.string().nullable(),
});

export const createInvoiceBodySchema = z.object({
  image: z.string({ error: 'Please choose an image.' }).trim().min(1, { error: 'Please choose an image.' }),
});
export type CreateInvoiceBody = z.input<typeof createInvoiceBodySchema>;

export const createInvoiceResponseSchema = z.object({
  success: z.literal(true),
  msg: z.string(),
  invoice: invoiceSchema,
});

export const payInvoiceResponseSchema = z.object({ success: z.literal(true), invoice: invoiceSchema });

/** The sandbox payment page's view of one invoice. */
export const invoiceDetailSchema = z.object({
  invoice: invoiceSchema,
  thumbnail_url: z.string().nullable(),
  provider: z.enum(['sandbox', 'stripe']),
});
export type InvoiceDetail = z.infer<typeof invoiceDetailSchema>;

export const rateBodySchema = z.object({
  uid: z
    .string({ error: 'Please select a radiologist.' })
    .trim()
    .min(1, { error: 'Please select a radiologist.' }),
  rating: z
    .number({ error: 'Rating must be a whole number from 1 to 5.' })
    .int({ error: 'Rating must be a whole number from 1 to 5.' })
    .min(1, { error: 'Rating must be a whole number from 1 to 5.' })
    .max(5, { error: 'Rating must be a whole number from 1 to 5.' }),
});
export type RateBody = z.input<typeof rateBodySchema>;
export const rateResponseSchema = z.object({ success: z.literal(true), msg: z.string() });

export function formatDollars(amount: number): string {
  return `$${amount.toFixed(2)}`;
}
