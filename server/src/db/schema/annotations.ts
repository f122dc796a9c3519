import { sql } from 'drizzle-orm';
import { check, index, integer, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import type { AnnotationData, AnnotationKind } from '@ra/shared';
import { archiveItems } from './archive-items.js';
import { users } from './users.js';

/**
 * A mark or measurement drawn on an archive item by one author (docs/api.md §15). The id is the
 * one the client chose, so that saving the same annotation again replaces it.
 */
export const annotations = pgTable(
  'annotations',
  {
    id: uuid('id').primaryKey(),
    itemId: uuid('item_id')
      .notNull()
      .references(() => archiveItems.id, { onDelete: 'cascade' }),
    authorId: uuid('author_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    kind: text('kind').$type<AnnotationKind>().notNull(),
    /** The frame drawn on, for a study; all three null for a raster image. */
    seriesInstanceUid: text('series_instance_uid'),
    sopInstanceUid: text('sop_instance_uid'),
    frame: integer('frame'),
    data: jsonb('data').$type<AnnotationData>().notNull(),
    label: text('label').notNull().default(''),
    createdAt: timestamp('created_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
  },
  (table) => [
    index('annotations_item_author_idx').on(table.itemId, table.authorId),
    check(
      'annotations_kind',
      sql`${table.kind} in ('length', 'angle', 'ellipse', 'rectangle', 'probe', 'arrow')`,
    ),
  ],
);
