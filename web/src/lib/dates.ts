export { MONTHS } from '@ra/shared';

/** `YYYY-MM-DD` from form fields, with month and day padded to two digits. */
export function toIsoDate(parts: { year: string; month: string; day: string }): string {
  return `${parts.year}-${parts.month.padStart(2, '0')}-${parts.day.padStart(2, '0')}`;
}

const SHORT_DATE_TIME = new Intl.DateTimeFormat('en-US', { dateStyle: 'short', timeStyle: 'short' });
const LONG_DATE = new Intl.DateTimeFormat('en-US', { dateStyle: 'long', timeZone: 'UTC' });
const SHORT_DATE = new Intl.DateTimeFormat('en-US', { dateStyle: 'short', timeZone: 'UTC' });
const MEDIUM_DATE = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeZone: 'UTC' });

/** en-US short date and time in the viewer's time zone, e.g. 11/22/26, 2:05 PM. */
export function formatDateTime(iso: string): string {
  return SHORT_DATE_TIME.format(new Date(iso));
}

/** A date of birth (`YYYY-MM-DD`), e.g. July 4, 1990; calendar dates carry no time zone. */
export function formatBirthDate(isoDate: string): string {
  return LONG_DATE.format(new Date(`${isoDate}T00:00:00Z`));
}

/** A calendar date (`YYYY-MM-DD`, such as a study's) in en-US short form, e.g. 3/4/26. */
export function formatShortDate(isoDate: string): string {
  return SHORT_DATE.format(new Date(`${isoDate}T00:00:00Z`));
}

/** A calendar date (`YYYY-MM-DD`) with its month named, e.g. Mar 12, 2025: what tells a prior study apart. */
export function formatMediumDate(isoDate: string): string {
  return MEDIUM_DATE.format(new Date(`${isoDate}T00:00:00Z`));
}
