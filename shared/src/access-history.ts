import { z } from 'zod';
import { itemSummarySchema } from './images.js';
import { ROLES } from './roles.js';

/** How the record was reached: a signed-in account, or a share link (docs/api.md §19). */
export const ACCESS_VIAS = ['account', 'share_link'] as const;
export const ACCESS_ACTIONS = ['list', 'view', 'download', 'profile', 'share_open'] as const;
export const ACCESS_WHO_KINDS = ['account', 'share'] as const;
export type AccessAction = (typeof ACCESS_ACTIONS)[number];

/** One access to the patient's records by someone else; `actor` is null when nobody signed in did it. */
export const accessHistoryEntrySchema = z.object({
  at: z.string(),
  actor: z
    .object({
      uid: z.uuid(),
      role: z.enum(ROLES),
      /** "<title> <first> <last>" */
      full_name: z.string(),
    })
    .nullable(),
  via: z.enum(ACCESS_VIAS),
  /**
   * Who it was, as the page names them: the account's "<title> <first> <last>", or a share link's
   * "Link shared <date>" (kind `share`); null when nobody signed in did it and no link was used.
   */
  who: z
    .object({ kind: z.enum(ACCESS_WHO_KINDS), label: z.string() })
    .nullable()
    .optional(),
  action: z.enum(ACCESS_ACTIONS),
  item_uid: z.string().nullable(),
  /** The item `item_uid` names, as the patient sees it; null when the entry names none. */
  item: itemSummarySchema.nullable(),
});
export type AccessHistoryEntry = z.infer<typeof accessHistoryEntrySchema>;

/** `GET /api/user/access-history`: paged, newest first. */
export const accessHistoryPageSchema = z.object({
  entries: z.array(accessHistoryEntrySchema),
  next_cursor: z.string().nullable(),
});
export type AccessHistoryPage = z.infer<typeof accessHistoryPageSchema>;
