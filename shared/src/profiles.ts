import { z } from 'zod';
import { emailField, LIMITS, uidField } from './fields.js';
import { ROLES } from './roles.js';

/** A member of a patient's care team: their physician, or a radiologist they have paid. */
export const staffMemberSchema = z.object({
  uid: uidField,
  role: z.enum(ROLES),
  title: z.string(),
  first_name: z.string(),
  last_name: z.string(),
  profile_image_url: z.string().nullable(),
});
export type StaffMember = z.infer<typeof staffMemberSchema>;

export const profileSchema = z.object({
  uid: uidField,
  title: z.string(),
  first_name: z.string(),
  last_name: z.string(),
  email: z.string(),
  dob: z.string(),
  profile_image_url: z.string().nullable(),
  /** True while the 100×100 crop of a new picture is being made; the URL is the original until then. */
  profile_image_processing: z.boolean(),
  bio: z.string(),
  expertise: z.string(),
  years_of_exp: z.number().int(),
  allow_ratings: z.boolean(),
  role: z.enum(ROLES),
});
export type Profile = z.infer<typeof profileSchema>;

export const profileResponseSchema = z.object({
  profile: profileSchema,
  staff: z.array(staffMemberSchema),
});
export type ProfileResponse = z.infer<typeof profileResponseSchema>;

export const NO_BIO_FOR_PATIENTS = 'Only physicians and radiologists have a bio.';
export const RATING_PREFERENCE_RADIOLOGISTS_ONLY = 'Only radiologists can change the rating preference.';

/** Every field is optional: only the fields sent change. */
export const updateProfileBodySchema = z.object({
  /** A finished `profile` upload of the caller's (`/api/uploads/<id>`), or null to remove the picture. */
  profile_image_url: z
    .string({ error: 'The upload was not found or is not finished.' })
    .trim()
    .nullable()
    .optional(),
  bio: z
    .string({ error: 'Bio must be text.' })
    .trim()
    .max(LIMITS.text, { error: 'Bio is too long.' })
    .optional(),
  enableRatingSystem: z.boolean({ error: 'The rating preference must be true or false.' }).optional(),
});
export type UpdateProfileBody = z.input<typeof updateProfileBodySchema>;

export const EMAIL_AND_PASSWORD_REQUIRED = 'Email and password are required.';

export const updateEmailBodySchema = z.object({
  email: z
    .string({ error: EMAIL_AND_PASSWORD_REQUIRED })
    .trim()
    .min(1, { error: EMAIL_AND_PASSWORD_REQUIRED })
    .pipe(emailField()),
  password: z.string({ error: EMAIL_AND_PASSWORD_REQUIRED }).min(1, { error: EMAIL_AND_PASSWORD_REQUIRED }),
});
export type UpdateEmailBody = z.input<typeof updateEmailBodySchema>;

/** The address changes only once the link sent to it is opened (docs/api.md §8.4). */
export const updateEmailResponseSchema = z.object({ success: z.literal(true), pending: z.literal(true) });
