import { z } from 'zod';
import { emailField } from './fields.js';
import { imageSchema, itemSummarySchema } from './images.js';

/** What a share link answers when it cannot be opened: expired, revoked, locked or unknown alike. */
export const SHARE_NOT_AVAILABLE = 'This link is not available.';
export const SHARE_WRONG_CODE = 'The access code is incorrect.';
export const SHARE_OPENED_MESSAGE = 'Your shared images were opened.';
export const SHARE_NO_DOWNLOAD = 'This link does not allow downloading.';
/** Wrong access codes after which a link is locked for good. */
export const SHARE_MAX_WRONG_CODES = 10;
/** The header a share's access code travels in, on every request under the link. */
export const SHARE_ACCESS_CODE_HEADER = 'X-Access-Code';
export const SHARE_EXPIRY_HOURS = { min: 1, max: 720, default: 168 } as const;
/** The lifetimes the web offers when sharing, in hours. */
export const SHARE_EXPIRY_CHOICES = [
  { hours: 1, label: '1 hour' },
  { hours: 24, label: '1 day' },
  { hours: 168, label: '7 days' },
  { hours: 720, label: '30 days' },
] as const;

const EXPIRY_MESSAGE = 'The link must last from 1 to 720 hours.';

/** `POST /api/image/{uid}/shares` (docs/api.md §20). */
export const createShareBodySchema = z.object({
  expires_in_hours: z
    .number({ error: EXPIRY_MESSAGE })
    .int({ error: EXPIRY_MESSAGE })
    .min(SHARE_EXPIRY_HOURS.min, { error: EXPIRY_MESSAGE })
    .max(SHARE_EXPIRY_HOURS.max, { error: EXPIRY_MESSAGE })
    .default(SHARE_EXPIRY_HOURS.default),
  access_code: z
    .string({ error: 'The access code must be 4 to 12 digits.' })
    .regex(/^[0-9]{4,12}$/, { error: 'The access code must be 4 to 12 digits.' })
    .optional(),
  allow_download: z.boolean({ error: 'Say whether the link allows downloading.' }),
  recipient_email: emailField().optional(),
  note: z
    .string({ error: 'The note must be text.' })
    .max(500, { error: 'The note is at most 500 characters.' })
    .optional(),
});
export type CreateShareBody = z.input<typeof createShareBodySchema>;

/** A share link as its creator sees it. */
export const shareSchema = z.object({
  uid: z.uuid(),
  /** `<PUBLIC_URL>/s/<token>`: only in the answer that created the link (the token is not kept). */
  url: z.string(),
  expires_at: z.string(),
  allow_download: z.boolean(),
  has_access_code: z.boolean(),
  created_at: z.string(),
  last_opened_at: z.string().nullable(),
  open_count: z.number().int(),
});
export type Share = z.infer<typeof shareSchema>;

export const createdShareSchema = z.object({ share: shareSchema });
export type CreatedShare = z.infer<typeof createdShareSchema>;

/** One of the caller's links in `GET /api/user/shares`, naming its item briefly. */
export const shareListEntrySchema = shareSchema.omit({ url: true }).extend({
  item_uid: z.uuid(),
  /** Null when the caller may no longer read the item. */
  item: itemSummarySchema.nullable(),
  /** Whether the link can still be opened (not expired, revoked or locked). */
  is_active: z.boolean(),
  revoked_at: z.string().nullable(),
  note: z.string().nullable(),
});
export type ShareListEntry = z.infer<typeof shareListEntrySchema>;

export const shareListPageSchema = z.object({
  shares: z.array(shareListEntrySchema),
  next_cursor: z.string().nullable(),
});
export type ShareListPage = z.infer<typeof shareListPageSchema>;

/** `GET /api/s/{token}` before the access code was given. */
export const shareNeedsCodeSchema = z.object({ needs_access_code: z.literal(true) });

/** `GET /api/s/{token}` once opened. */
export const openedShareSchema = z.object({
  patient: z.object({ full_name: z.string(), dob: z.string().nullable() }),
  item: imageSchema,
  expires_at: z.string(),
  allow_download: z.boolean(),
  dicomweb_root: z.string(),
});
export type OpenedShare = z.infer<typeof openedShareSchema>;

export const shareOpeningSchema = z.union([shareNeedsCodeSchema, openedShareSchema]);
export type ShareOpening = z.infer<typeof shareOpeningSchema>;
