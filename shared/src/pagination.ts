import { z } from 'zod';

export const PAGE_SIZE_DEFAULT = 50;
export const PAGE_SIZE_MAX = 200;

/** `?limit=&cursor=` of the paged lists (docs/api.md §1.2). */
export const pageQuerySchema = z.object({
  limit: z.coerce
    .number({ error: 'Limit must be a whole number from 1 to 200.' })
    .int({ error: 'Limit must be a whole number from 1 to 200.' })
    .min(1, { error: 'Limit must be a whole number from 1 to 200.' })
    .max(PAGE_SIZE_MAX, { error: 'Limit must be a whole number from 1 to 200.' })
    .default(PAGE_SIZE_DEFAULT),
  cursor: z.string().max(200, { error: 'The cursor is not valid.' }).optional(),
});
export type PageQuery = z.input<typeof pageQuerySchema>;
