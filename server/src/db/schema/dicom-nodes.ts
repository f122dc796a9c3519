import { integer, index, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { users } from './users.js';

/**
 * DICOM devices (modalities, PACS, workstations) a physician has registered with the operator: an
 * association is accepted from a registered calling AE title only (and from its host when one is
 * set), and what it sends waits in that physician's Incoming list. With a host and a port, the
 * physician may also send studies to it (modules/dicom-node).
 */
export const dicomNodes = pgTable(
  'dicom_nodes',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    physicianId: uuid('physician_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    aeTitle: text('ae_title').notNull(),
    /** The IP address associations must come from; null: any. Also where studies are sent. */
    host: text('host'),
    /** The node's own DICOM port, for sending to it; null: it only sends. */
    port: integer('port'),
    createdAt: timestamp('created_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
  },
  (table) => [
    uniqueIndex('dicom_nodes_ae_title_unique').on(table.aeTitle),
    index('dicom_nodes_physician_idx').on(table.physicianId),
  ],
);
