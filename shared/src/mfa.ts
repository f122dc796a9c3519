import { z } from 'zod';
import { authResponseSchema } from './identity.js';

/** Two-factor sign-in with a time-based one-time password (RFC 6238), docs/api.md §6. */
export const MFA_CODE_INCORRECT = 'The code is incorrect.';
export const MFA_REQUIRED = 'Two-factor sign-in is required.';
export const MFA_RECOVERY_CODE_COUNT = 10;

const passwordField = z.string({ error: 'Password is required' }).min(1, { error: 'Password is required' });
/** Digits as an authenticator app shows them; spaces are forgiven ("123 456"). */
const codeField = z
  .string({ error: 'The code is required.' })
  .max(64, { error: MFA_CODE_INCORRECT })
  .transform((value) => value.replace(/\s+/g, ''))
  .pipe(z.string().min(1, { error: 'The code is required.' }));

export const mfaSetupBodySchema = z.object({ password: passwordField });
export type MfaSetupBody = z.input<typeof mfaSetupBodySchema>;
export const mfaSetupResponseSchema = z.object({ secret: z.string(), otpauth_url: z.string() });
export type MfaSetup = z.infer<typeof mfaSetupResponseSchema>;

export const mfaEnableBodySchema = z.object({ code: codeField });
export type MfaEnableBody = z.input<typeof mfaEnableBodySchema>;
export const mfaEnableResponseSchema = z.object({ recovery_codes: z.array(z.string()) });

export const mfaDisableBodySchema = z.object({ password: passwordField, code: codeField });
export type MfaDisableBody = z.input<typeof mfaDisableBodySchema>;

export const mfaVerifyBodySchema = z
  .object({
    mfa_token: z.string({ error: 'The sign-in has expired. Please sign in again.' }).min(1).max(200),
    code: codeField.optional(),
    recovery_code: z.string().trim().max(64).optional(),
  })
  .refine((body) => Boolean(body.code) !== Boolean(body.recovery_code), {
    error: 'Enter the code from your app or one recovery code.',
    path: ['code'],
  });
export type MfaVerifyBody = z.input<typeof mfaVerifyBodySchema>;

/** Sign-in's answer when the password was right and a code is still needed. */
export const mfaChallengeSchema = z.object({ mfa_required: z.literal(true), mfa_token: z.string() });
export type MfaChallenge = z.infer<typeof mfaChallengeSchema>;

export const signinResponseSchema = z.union([authResponseSchema, mfaChallengeSchema]);
export type SigninResponse = z.infer<typeof signinResponseSchema>;
