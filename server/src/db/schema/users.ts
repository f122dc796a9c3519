import { sql } from 'drizzle-orm';
import {
  boolean,
  check,
  date,
  integer,
  pgEnum,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { ROLES } from '@ra/shared';
import { hospitals } from './hospitals.js';

export const roleEnum = pgEnum('role', ROLES);

export const users = pgTable(
  'users',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    /** Always stored trimmed and lower-cased. */
    email: text('email').notNull(),
    /** Null for accounts created by invitation until the invitee chooses a password. */
    passwordHash: text('password_hash'),
    role: roleEnum('role').notNull(),
    title: text('title').notNull().default(''),
    firstName: text('first_name').notNull(),
    lastName: text('last_name').notNull(),
    dob: date('dob', { mode: 'string' }).notNull(),
    hospitalId: uuid('hospital_id').references(() => hospitals.id),
    bio: text('bio').notNull().default(''),
    expertise: text('expertise').notNull().default(''),
    yearsOfExp: integer('years_of_exp').notNull().default(0),
    feeCents: integer('fee_cents').notNull().default(15000),
    allowRatings: boolean('allow_ratings').notNull().default(true),
    /** Random per picture: the public crop's URL names it, so the URL changes with the picture. */
    pictureId: uuid('picture_id'),
    /** The uploaded picture as it came (private). */
    pictureKey: text('picture_key'),
    /** The 100×100 WebP crop; null until the background job has made it. */
    pictureCropKey: text('picture_crop_key'),
    /**
     * When the owner proved the address by opening the link sent to it; null until then
     * (docs/security.md §4).
     */
    emailVerifiedAt: timestamp('email_verified_at', { withTimezone: true, precision: 3 }),
    /** Base32 TOTP secret (RFC 6238); set at setup, in force once `totpEnabledAt` is set. */
    totpSecret: text('totp_secret'),
    totpEnabledAt: timestamp('totp_enabled_at', { withTimezone: true, precision: 3 }),
    /** The last time step a code was accepted for, so one code cannot be replayed within its window. */
    totpLastStep: integer('totp_last_step'),
    /** Bumped whenever the user's notifications change, so polling can answer 304 from one row. */
    notificationsVersion: integer('notifications_version').notNull().default(0),
    createdAt: timestamp('created_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
  },
  (table) => [
    uniqueIndex('users_email_unique').on(table.email),
    uniqueIndex('users_picture_id_unique').on(table.pictureId),
    check('users_fee_non_negative', sql`${table.feeCents} >= 0`),
  ],
);

export type UserRow = typeof users.$inferSelect;
