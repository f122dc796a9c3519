import { index, pgTable, timestamp, uuid } from 'drizzle-orm/pg-core';
import { users } from './users.js';

/** A patient has at most one physician (the primary key enforces it). */
export const patientPhysicians = pgTable(
  'patient_physicians',
  {
    patientId: uuid('patient_id')
      .primaryKey()
      .references(() => users.id, { onDelete: 'cascade' }),
    physicianId: uuid('physician_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: timestamp('created_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
  },
  (table) => [index('patient_physicians_physician_idx').on(table.physicianId)],
);
