import { sql } from 'drizzle-orm';
import {
  check,
  index,
  integer,
  pgEnum,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { archiveItems } from './archive-items.js';
import { users } from './users.js';

export const invoiceStatus = pgEnum('invoice_status', ['open', 'paid', 'void']);
export const paymentProvider = pgEnum('payment_provider', ['sandbox', 'stripe']);

export const invoices = pgTable(
  'invoices',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    patientId: uuid('patient_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    radiologistId: uuid('radiologist_id')
      .notNull()
      .references(() => users.id),
    itemId: uuid('item_id')
      .notNull()
      .references(() => archiveItems.id, { onDelete: 'cascade' }),
    amountCents: integer('amount_cents').notNull(),
    status: invoiceStatus('status').notNull().default('open'),
    provider: paymentProvider('provider').notNull(),
    /** The provider's own id (Stripe invoice id); null for the sandbox. */
    providerRef: text('provider_ref'),
    url: text('url').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
    paidAt: timestamp('paid_at', { withTimezone: true, precision: 3 }),
    voidedAt: timestamp('voided_at', { withTimezone: true, precision: 3 }),
  },
  (table) => [
    index('invoices_patient_created_idx').on(table.patientId, table.createdAt.desc()),
    index('invoices_radiologist_idx').on(table.radiologistId, table.status),
    uniqueIndex('invoices_provider_ref_unique').on(table.providerRef),
    // At most one open invoice per patient, and one live invoice per item and radiologist:
    // the database keeps these rules even when two requests race.
    uniqueIndex('invoices_one_open_per_patient')
      .on(table.patientId)
      .where(sql`${table.status} = 'open'`),
    uniqueIndex('invoices_one_live_per_item_radiologist')
      .on(table.itemId, table.radiologistId)
      .where(sql`${table.status} in ('open', 'paid')`),
    check('invoices_amount_non_negative', sql`${table.amountCents} >= 0`),
  ],
);

/** Stripe events already handled, so a replayed event has no second effect. */
export const stripeEvents = pgTable('stripe_events', {
  id: text('id').primaryKey(),
  type: text('type').notNull(),
  receivedAt: timestamp('received_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
});

export const stripeCustomers = pgTable('stripe_customers', {
  userId: uuid('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  customerId: text('customer_id').notNull().unique(),
});

export const ratings = pgTable(
  'ratings',
  {
    patientId: uuid('patient_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    radiologistId: uuid('radiologist_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    rating: integer('rating').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
  },
  (table) => [
    uniqueIndex('ratings_patient_radiologist_unique').on(table.patientId, table.radiologistId),
    index('ratings_radiologist_idx').on(table.radiologistId),
    check('ratings_range', sql`${table.rating} between 1 and 5`),
  ],
);
