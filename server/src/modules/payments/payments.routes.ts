import type { FastifyInstance, FastifySchema } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type Stripe from 'stripe';
import { z } from 'zod';
import {
  createInvoiceBodySchema,
  createInvoiceResponseSchema,
  ERROR_BODIES,
  invoiceDetailSchema,
  invoiceListSchema,
  pageQuerySchema,
  payInvoiceResponseSchema,
  successSchema,
} from '@ra/shared';
import type { AppContext } from '../../context.js';
import { currentUser, type RequireUser } from '../../plugins/auth.js';
import * as invoices from './invoices.service.js';
import { handleStripeWebhook } from './stripe-webhook.js';

const uidParams = z.object({ uid: z.string() });
const TAGS = ['Payments'];

const stripeWebhookSchema: FastifySchema = {
  summary: 'Stripe events: an invoice paid or voided at Stripe',
  description: '404 when Stripe is not configured.',
  tags: TAGS,
  consumes: ['application/json'],
  // Stripe signs the exact bytes it sent: the route reads them raw, never parsed by a schema.
  documentedOnly: {
    headers: z.object({ 'stripe-signature': z.string().describe('Checked with STRIPE_WEBHOOK_SECRET.') }),
    body: z.unknown().describe('A Stripe event, as Stripe sent it.'),
  },
  response: { 200: z.object({ received: z.literal(true) }) },
};

export function paymentsRoutes(
  app: FastifyInstance,
  ctx: AppContext,
  requireUser: RequireUser,
  stripe: Stripe | undefined,
): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const patientOnly = requireUser('PATIENT');

  r.post(
    '/api/payment/:uid/invoice',
    {
      schema: {
        summary: 'Ask a radiologist (uid) for a second opinion on an item: an invoice',
        tags: TAGS,
        params: uidParams,
        body: createInvoiceBodySchema,
        response: { 201: createInvoiceResponseSchema },
      },
      preHandler: patientOnly,
    },
    async (request, reply) => {
      const invoice = await invoices.createInvoice(
        ctx,
        currentUser(request),
        request.params.uid,
        request.body.image,
      );
      return reply.status(201).send({ success: true, msg: 'Successfully created invoice.', invoice });
    },
  );

  r.get(
    '/api/payment/invoices',
    {
      schema: {
        summary: "The caller's invoices, newest first",
        tags: TAGS,
        querystring: pageQuerySchema,
        response: { 200: invoiceListSchema },
      },
      preHandler: patientOnly,
    },
    (request) => invoices.listInvoices(ctx, currentUser(request), request.query),
  );

  r.get(
    '/api/payment/invoices/:uid',
    {
      schema: {
        summary: "One of the caller's invoices, for its payment page",
        tags: TAGS,
        params: uidParams,
        response: { 200: invoiceDetailSchema },
      },
      preHandler: patientOnly,
    },
    (request) => invoices.getInvoiceDetail(ctx, currentUser(request), request.params.uid),
  );

  r.post(
    '/api/payment/invoices/:uid/cancel',
    {
      schema: {
        summary: 'Cancel an open invoice',
        tags: TAGS,
        params: uidParams,
        response: { 200: successSchema },
      },
      preHandler: patientOnly,
    },
    async (request) => {
      await invoices.cancelInvoice(ctx, currentUser(request), request.params.uid);
      return { success: true as const };
    },
  );

  r.post(
    '/api/payment/sandbox/:uid/pay',
    {
      schema: {
        summary: 'Pay an invoice in the sandbox (without Stripe)',
        tags: TAGS,
        params: uidParams,
        response: { 200: payInvoiceResponseSchema },
      },
      preHandler: patientOnly,
    },
    async (request) => ({
      success: true as const,
      invoice: await invoices.payWithSandbox(ctx, currentUser(request), request.params.uid),
    }),
  );

  void app.register((scope, _options, done) => {
    // Stripe signs the exact bytes it sent: keep the body raw for this route.
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', { parseAs: 'buffer' }, (_request, body, next) => next(null, body));
    scope.post('/api/payment/webhook/stripe', { schema: stripeWebhookSchema }, async (request, reply) => {
      if (!stripe || !ctx.config.stripe) {
        return reply.status(404).send(ERROR_BODIES.notFound);
      }
      const signature = request.headers['stripe-signature'];
      await handleStripeWebhook(
        ctx,
        stripe,
        ctx.config.stripe.webhookSecret,
        request.body as Buffer,
        typeof signature === 'string' ? signature : undefined,
      );
      return { received: true };
    });
    done();
  });
}
