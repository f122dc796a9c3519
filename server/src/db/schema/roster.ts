import { date, index, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { hospitals } from './hospitals.js';
import { users } from './users.js';

/** Physicians a hospital employs; a public physician sign-up must claim one of these entries. */
export const rosterPhysicians = pgTable(
  'roster_physicians',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    hospitalId: uuid('hospital_id')
      .notNull()
      .references(() => hospitals.id, { onDelete: 'cascade' }),
    firstName: text('first_name').notNull(),
    lastName: text('last_name').notNull(),
    dob: date('dob', { mode: 'string' }).notNull(),
    claimedBy: uuid('claimed_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
  },
  (table) => [
    index('roster_physicians_hospital_idx').on(table.hospitalId),
    uniqueIndex('roster_physicians_claimed_by_unique').on(table.claimedBy),
  ],
);
