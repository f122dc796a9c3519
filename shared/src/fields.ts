import { z } from 'zod';

export const LIMITS = {
  name: 100,
  text: 10_000,
  message: 255,
  email: 254,
  passwordMin: 8,
  passwordMax: 256,
} as const;

export const TITLES = ['Mr.', 'Mrs.', 'Ms.', 'Dr.'] as const;
export type Title = (typeof TITLES)[number] | '';

const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** Trimmed, lower-cased email that must look like an address. */
export function emailField(message = 'Email address must be valid') {
  return z
    .string({ error: message })
    .trim()
    .toLowerCase()
    .max(LIMITS.email, { error: 'Email is too long.' })
    .regex(EMAIL_PATTERN, { error: message });
}

/** A new password; never trimmed. */
export const newPasswordField = z
  .string({ error: 'Password must be at least 8 characters long' })
  .min(LIMITS.passwordMin, { error: 'Password must be at least 8 characters long' })
  .max(LIMITS.passwordMax, { error: 'Password is too long.' });

/** A required, trimmed name such as a first or last name. */
export function nameField(label: string) {
  const required = `${label} is required`;
  return z
    .string({ error: required })
    .trim()
    .min(1, { error: required })
    .max(LIMITS.name, { error: `${label} is too long.` });
}

export const titleField = z
  .string({ error: 'Title must be Mr., Mrs., Ms. or Dr.' })
  .trim()
  .refine((value) => value === '' || (TITLES as readonly string[]).includes(value), {
    error: 'Title must be Mr., Mrs., Ms. or Dr.',
  })
  .transform((value) => value as Title);

const DOB_MESSAGE = 'Date of birth must be a real date in the past';

/** True when `value` is `YYYY-MM-DD`, names a real calendar day, and is before today (UTC). */
export function isPastIsoDate(value: string, now = new Date()): boolean {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!match) {
    return false;
  }
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const date = new Date(Date.UTC(year, month - 1, day));
  const isReal =
    date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
  return isReal && year >= 1900 && date.getTime() < now.getTime();
}

export const dobField = z
  .string({ error: DOB_MESSAGE })
  .trim()
  .refine((value) => isPastIsoDate(value), { error: DOB_MESSAGE });

export const uidField = z.uuid();

export const isoDateTime = z.iso.datetime();

/** Month names of the date-of-birth selects, January first. */
export const MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
] as const;

const uuidField = z.uuid();

/** Whether a value is a UUID as the API's ids are (one schema, built once). */
export function isUuid(value: unknown): value is string {
  return uuidField.safeParse(value).success;
}
