import { z } from 'zod';
import { dobField, emailField, nameField, newPasswordField, titleField, uidField } from './fields.js';
import { ROLE_NAMES, roleNameSchema } from './roles.js';

export const ACCESS_TOKEN_SECONDS = 3600;
/** The web app refreshes its access token this often while signed in. */
export const TOKEN_REFRESH_MS = 55 * 60 * 1000;

const signupRole = z
  .string({ error: 'Role must be Patient or Physician' })
  .trim()
  .toUpperCase()
  .pipe(z.enum(['PATIENT', 'PHYSICIAN'], { error: 'Role must be Patient or Physician' }));

/** Field order follows the sign-up form, so the first error is the one the user meets first. */
export const signupFieldsSchema = z.object({
  role: signupRole,
  hospital: z.string().trim().optional().nullable(),
  title: titleField.optional().default(''),
  first_name: nameField('First name'),
  last_name: nameField('Last name'),
  dob: dobField,
  email: emailField(),
  password: newPasswordField,
});

export const signupBodySchema = signupFieldsSchema.check((ctx) => {
  const body = ctx.value;
  if (body.role === 'PHYSICIAN' && !body.hospital) {
    ctx.issues.push({
      code: 'custom',
      message: 'Hospital is required for physicians',
      path: ['hospital'],
      input: body.hospital,
    });
  }
});
export type SignupBody = z.input<typeof signupBodySchema>;

export const signupResponseSchema = z.object({ msg: z.string() });

const requiredText = (message: string) => z.string({ error: message }).min(1, { error: message });

export const signinBodySchema = z.object({
  email: z
    .string({ error: 'Email address is required' })
    .trim()
    .toLowerCase()
    .min(1, { error: 'Email address is required' }),
  password: requiredText('Password is required'),
  role: roleNameSchema('Role must be Patient, Physician or Radiologist').optional(),
});
export type SigninBody = z.input<typeof signinBodySchema>;

export const meSchema = z.object({
  uid: uidField,
  email: z.string(),
  displayName: z.string(),
  role: z.enum(ROLE_NAMES),
  /** False until the owner opens the confirmation link sent to the address (docs/security.md §4). */
  email_verified: z.boolean(),
  mfa_enabled: z.boolean(),
});
export type Me = z.infer<typeof meSchema>;

export const authResponseSchema = z.object({
  token: z.string(),
  expiresIn: z.number(),
  /** Seconds without activity after which the server ends the session; the app warns a minute before. */
  idleTimeout: z.number(),
  user: meSchema,
});
export type AuthResponse = z.infer<typeof authResponseSchema>;

export const portalParamsSchema = z.object({
  role: roleNameSchema('Role must be Patient, Physician or Radiologist'),
});
export const portalBodySchema = z.object({ email: emailField() });

export const resetRequestBodySchema = z.object({ email: emailField() });
export type ResetRequestBody = z.input<typeof resetRequestBodySchema>;

export const RESET_LINK_INVALID = 'This reset link is invalid or has expired.';

export const resetConfirmBodySchema = z.object({
  token: z.string({ error: RESET_LINK_INVALID }).trim().min(1, { error: RESET_LINK_INVALID }),
  password: newPasswordField,
});
export type ResetConfirmBody = z.input<typeof resetConfirmBodySchema>;

export const EMAIL_LINK_INVALID = 'This link is invalid or has expired.';

/** Body of `POST /api/auth/verify-email`: the token of a confirmation, email-change or cancel link. */
export const verifyEmailBodySchema = z.object({
  token: z
    .string({ error: EMAIL_LINK_INVALID })
    .trim()
    .min(1, { error: EMAIL_LINK_INVALID })
    .max(200, { error: EMAIL_LINK_INVALID }),
});
export type VerifyEmailBody = z.input<typeof verifyEmailBodySchema>;

/** Formats a person's name as the contract's `displayName`. */
export function displayName(person: { title: string; first_name: string; last_name: string }): string {
  return [person.title, person.first_name, person.last_name].filter(Boolean).join(' ');
}
