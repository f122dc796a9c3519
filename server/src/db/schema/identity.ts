import { index, pgEnum, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { users } from './users.js';

/** A signed-in browser. The cookie holds a random secret; only its SHA-256 is stored. */
export const sessions = pgTable(
  'sessions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    secretHash: text('secret_hash').notNull().unique(),
    createdAt: timestamp('created_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
    lastUsedAt: timestamp('last_used_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true, precision: 3 }).notNull(),
    revokedAt: timestamp('revoked_at', { withTimezone: true, precision: 3 }),
  },
  (table) => [index('sessions_user_idx').on(table.userId)],
);

export const passwordTokenPurpose = pgEnum('password_token_purpose', [
  'reset',
  'invite',
  'verify_email',
  'email_change',
  'email_change_cancel',
  'mfa_challenge',
]);

/**
 * Single-use secrets sent to a user: password reset and invitation links, email confirmation and
 * email change links, and the short-lived token between a password and a two-factor code.
 * Only the SHA-256 is stored.
 */
export const passwordTokens = pgTable(
  'password_tokens',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    tokenHash: text('token_hash').notNull().unique(),
    purpose: passwordTokenPurpose('purpose').notNull(),
    /** The address an email-change link moves the account to. */
    newEmail: text('new_email'),
    createdAt: timestamp('created_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true, precision: 3 }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true, precision: 3 }),
  },
  (table) => [index('password_tokens_user_idx').on(table.userId)],
);

/**
 * Cookie secrets a session has already rotated away from. Presenting one again means the cookie
 * was copied: the whole session is revoked.
 */
export const sessionRetiredSecrets = pgTable(
  'session_retired_secrets',
  {
    secretHash: text('secret_hash').primaryKey(),
    sessionId: uuid('session_id')
      .notNull()
      .references(() => sessions.id, { onDelete: 'cascade' }),
    retiredAt: timestamp('retired_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
  },
  (table) => [index('session_retired_secrets_session_idx').on(table.sessionId)],
);

/** Single-use recovery codes for two-factor sign-in; only the SHA-256 is stored. */
export const mfaRecoveryCodes = pgTable(
  'mfa_recovery_codes',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    codeHash: text('code_hash').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
    usedAt: timestamp('used_at', { withTimezone: true, precision: 3 }),
  },
  (table) => [index('mfa_recovery_codes_user_idx').on(table.userId)],
);

/** Keys that sign access tokens. The newest active key signs; retired keys still verify until their tokens expire. */
export const signingKeys = pgTable('signing_keys', {
  kid: text('kid').primaryKey(),
  algorithm: text('algorithm').notNull(),
  privateJwk: text('private_jwk').notNull(),
  publicJwk: text('public_jwk').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
  retiredAt: timestamp('retired_at', { withTimezone: true, precision: 3 }),
});

/** Named server secrets shared by every instance (for example the key that signs file URLs). */
export const serverSecrets = pgTable('server_secrets', {
  name: text('name').primaryKey(),
  value: text('value').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
});
