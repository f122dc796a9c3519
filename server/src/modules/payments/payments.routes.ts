import type { FastifyInstance } from 'fastify';
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
      schema: { querystring: pageQuerySchema, response: { 200: invoiceListSchema } },
      preHandler: patientOnly,
    },
    (request) => invoices.listInvoices(ctx, currentUser(request), request.query),
  );

  r.get(
    '/api/payment/invoices/:uid',
    { schema: { params: uidParams, response: { 200: invoiceDetailSchema } }, preHandler: patientOnly },
    (request) => invoices.getInvoiceDetail(ctx, currentUser(request), request.params.uid),
  );

  r.post(
    '/api/payment/invoices/:uid/cancel',
    { schema: { params: uidParams, response: { 200: successSchema } }, preHandler: patientOnly },
    async (request) => {
      await invoices.cancelInvoice(ctx, currentUser(request), request.params.uid);
      return { success: true as const };
    },
  );

  r.post(
    '/api/payment/sandbox/:uid/pay',
    { schema: { params: uidParams, response: { 200: payInvoiceResponseSchema } }, preHandler: patientOnly },
    async (request) => ({
      success: true as const,
      invoice: await invoices.payWithSandbox(ctx, currentUser(request), request.params.uid),
    }),
  );

  void app.register((scope, _options, done) => {
    // Stripe signs the exact bytes it sent: keep the body raw for this route.
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', { parseAs: 'buffer' }, (_request, body, next) => next(null, body));
    scope.post('/api/payment/webhook/stripe', async (request, reply) => {
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
