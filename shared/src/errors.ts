import { z } from 'zod';

/** The fixed bodies of docs/api.md §1.3, one per kind of error. */
export const ERROR_BODIES = {
  unauthenticated: { error: 'There was an error with your request.' },
  sessionExpired: { error: 'Your session has expired. Please login again.' },
  forbidden: { error: 'You are not authorized to make this request.' },
  notFound: { error: 'Not found.' },
  tooManyRequests: { error: 'Too many requests. Try again later.' },
  internal: { error: 'Something went wrong.' },
  /** An account whose address is not confirmed stores nothing in the archive. */
  unverified: { error: 'Please confirm your email address first.' },
  /** The uploader's storage quota (STORAGE_QUOTA_GB) is used up. */
  storageFull: { error: 'Your storage is full.' },
} as const;

export const validationErrorSchema = z.object({
  errors: z.array(z.object({ msg: z.string(), path: z.string() })),
});
export type ValidationError = z.infer<typeof validationErrorSchema>;

export const ruleViolationSchema = z.object({
  success: z.literal(false),
  msg: z.string(),
});
export type RuleViolationBody = z.infer<typeof ruleViolationSchema>;

export const errorMessageSchema = z.object({ error: z.string() });
export type ErrorMessageBody = z.infer<typeof errorMessageSchema>;

export const successSchema = z.object({ success: z.literal(true) });
