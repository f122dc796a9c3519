import { sql } from 'drizzle-orm';
import { boolean, check, index, integer, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { archiveItems } from './archive-items.js';
import { users } from './users.js';

/**
 * Share links (docs/api.md §20): one archive item opened by anyone holding the link's token, until
 * it expires, is revoked or is locked by wrong access codes. Only the SHA-256 of the token is kept,
 * and the access code only as a keyed hash (shares module, share-secrets.ts).
 */
export const shareLinks = pgTable(
  'share_links',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    tokenHash: text('token_hash').notNull().unique(),
    itemId: uuid('item_id')
      .notNull()
      .references(() => archiveItems.id, { onDelete: 'cascade' }),
    /** The patient whose item it is, kept so that audit rows and notifications need no join. */
    patientId: uuid('patient_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    creatorId: uuid('creator_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** Keyed hash of the access code; null when the link has none. */
    accessCodeHash: text('access_code_hash'),
    allowDownload: boolean('allow_download').notNull(),
    recipientEmail: text('recipient_email'),
    note: text('note'),
    expiresAt: timestamp('expires_at', { withTimezone: true, precision: 3 }).notNull(),
    revokedAt: timestamp('revoked_at', { withTimezone: true, precision: 3 }),
    /** Wrong access codes in a row; at SHARE_MAX_WRONG_CODES the link is locked for good. */
    failedAttempts: integer('failed_attempts').notNull().default(0),
    openCount: integer('open_count').notNull().default(0),
    lastOpenedAt: timestamp('last_opened_at', { withTimezone: true, precision: 3 }),
    /** The day (UTC) the patient was last told of an opening: at most one notification a link a day. */
    notifiedOn: text('notified_on'),
    createdAt: timestamp('created_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
  },
  (table) => [
    index('share_links_creator_created_idx').on(table.creatorId, table.createdAt.desc(), table.id.desc()),
    index('share_links_item_idx').on(table.itemId),
    check('share_links_note_length', sql`char_length(${table.note}) <= 500`),
  ],
);
