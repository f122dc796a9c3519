import type { DcmjsDataset } from 'dcmjs';

/**
 * Reads single values out of a dataset as dcmjs gives them, forgiving what real files get wrong:
 * padding, empty values, dates that are not dates and numbers that are not numbers.
 */

function firstValue(dataset: DcmjsDataset, tag: string): unknown {
  const value = dataset[tag]?.Value;
  return Array.isArray(value) ? value[0] : undefined;
}

/** A person name's alphabetic group, as DICOM writes it: "Family^Given^Middle^Prefix^Suffix". */
function personName(value: unknown): string {
  const alphabetic =
    typeof value === 'object' && value !== null ? (value as { Alphabetic?: unknown }).Alphabetic : value;
  return typeof alphabetic === 'string' ? alphabetic.trim().replace(/\^+$/, '') : '';
}

/** The first value as text; '' when absent. Person names give their alphabetic group. */
export function readString(dataset: DcmjsDataset, tag: string): string {
  const value = firstValue(dataset, tag);
  if (dataset[tag]?.vr === 'PN') {
    return personName(value);
  }
  if (typeof value === 'number' && Number.isFinite(value)) {
    return String(value);
  }
  return typeof value === 'string' ? value.replace(/\0/g, '').trim() : '';
}

/** An integer (IS, US, UL…), or null when absent or not a whole number. */
export function readInteger(dataset: DcmjsDataset, tag: string): number | null {
  const value = firstValue(dataset, tag);
  const number = typeof value === 'string' ? Number(value.trim() || Number.NaN) : value;
  return typeof number === 'number' && Number.isSafeInteger(number) ? number : null;
}

/** A DA value as YYYY-MM-DD, or null when absent or not a real date (the old "YYYY.MM.DD" is read too). */
export function readDate(dataset: DcmjsDataset, tag: string): string | null {
  const match = /^(\d{4})\.?(\d{2})\.?(\d{2})$/.exec(readString(dataset, tag));
  if (!match) {
    return null;
  }
  const [, year, month, day] = match as unknown as [string, string, string, string];
  const date = new Date(Date.UTC(Number(year), Number(month) - 1, Number(day)));
  const isReal =
    date.getUTCFullYear() === Number(year) &&
    date.getUTCMonth() === Number(month) - 1 &&
    date.getUTCDate() === Number(day);
  return isReal ? `${year}-${month}-${day}` : null;
}
