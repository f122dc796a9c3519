import { sql, type SQL, type SQLWrapper } from 'drizzle-orm';

/**
 * QIDO-RS matching (PS3.18 8.3.4, PS3.4 C.2.2.2): what a search's query parameters ask for,
 * turned into SQL conditions on our columns. Unsupported keys are reported, not refused.
 */

export type QidoLevel = 'study' | 'series' | 'instance';

type Matching = 'uid' | 'text' | 'name' | 'date' | 'number' | 'modalities';

interface MatchKey {
  tag: string;
  keyword: string;
  level: QidoLevel;
  matching: Matching;
}

const MATCH_KEYS: MatchKey[] = [
  { tag: '0020000D', keyword: 'StudyInstanceUID', level: 'study', matching: 'uid' },
  { tag: '00080020', keyword: 'StudyDate', level: 'study', matching: 'date' },
  { tag: '00080050', keyword: 'AccessionNumber', level: 'study', matching: 'text' },
  { tag: '00080061', keyword: 'ModalitiesInStudy', level: 'study', matching: 'modalities' },
  { tag: '00080090', keyword: 'ReferringPhysicianName', level: 'study', matching: 'name' },
  { tag: '00081030', keyword: 'StudyDescription', level: 'study', matching: 'text' },
  { tag: '00100010', keyword: 'PatientName', level: 'study', matching: 'name' },
  { tag: '00100020', keyword: 'PatientID', level: 'study', matching: 'text' },
  { tag: '00100030', keyword: 'PatientBirthDate', level: 'study', matching: 'date' },
  { tag: '00200010', keyword: 'StudyID', level: 'study', matching: 'text' },
  { tag: '0020000E', keyword: 'SeriesInstanceUID', level: 'series', matching: 'uid' },
  { tag: '00080060', keyword: 'Modality', level: 'series', matching: 'text' },
  { tag: '00200011', keyword: 'SeriesNumber', level: 'series', matching: 'number' },
  { tag: '0008103E', keyword: 'SeriesDescription', level: 'series', matching: 'text' },
  { tag: '00080018', keyword: 'SOPInstanceUID', level: 'instance', matching: 'uid' },
  { tag: '00080016', keyword: 'SOPClassUID', level: 'instance', matching: 'uid' },
  { tag: '00200013', keyword: 'InstanceNumber', level: 'instance', matching: 'number' },
];

const LEVEL_ORDER: QidoLevel[] = ['study', 'series', 'instance'];
const PAGING = new Set(['limit', 'offset', 'includefield', 'fuzzymatching']);
export const MAX_QIDO_LIMIT = 1000;

/** A query value that cannot match anything; `path` names the attribute (or paging key) at fault. */
export class QidoQueryError extends Error {
  constructor(
    message: string,
    readonly path: string,
  ) {
    super(message);
  }
}

/** A UID is digits and dots, at most 64 characters (PS3.5 9.1). */
const UID = /^[0-9]+(\.[0-9]+)*$/;

/** Whether a path segment names exactly one UID: no list, no wildcard. */
export function isUid(value: string): boolean {
  return value.length <= 64 && UID.test(value);
}

/** Integer attributes (IS, US, UL) are stored as 32-bit integers. */
const MAX_INTEGER = 2 ** 31 - 1;

export interface QidoQuery {
  /** Conditions by level; the caller maps each to its table's columns. */
  matches: { key: MatchKey; value: string }[];
  limit: number;
  offset: number;
  /** Extra attributes to return (tags), or 'all'. */
  includeFields: string[] | 'all';
  /** Query keys this server does not match on (reported in a Warning header). */
  ignored: string[];
}

function keyOf(name: string): MatchKey | undefined {
  const upper = name.toUpperCase();
  return MATCH_KEYS.find((key) => key.keyword === name || key.tag === upper);
}

function tagOf(name: string): string | undefined {
  if (/^[0-9A-Fa-f]{8}$/.test(name)) {
    return name.toUpperCase();
  }
  return keyOf(name)?.tag ?? KEYWORD_TAGS[name];
}

/** Keywords includefield may name beyond the matching keys. */
const KEYWORD_TAGS: Record<string, string> = {
  StudyTime: '00080030',
  PatientSex: '00100040',
  NumberOfStudyRelatedSeries: '00201206',
  NumberOfStudyRelatedInstances: '00201208',
  NumberOfSeriesRelatedInstances: '00201209',
  BodyPartExamined: '00180015',
  Rows: '00280010',
  Columns: '00280011',
  NumberOfFrames: '00280008',
};

function toInteger(raw: string | undefined, fallback: number, max: number, name: string): number {
  if (raw === undefined || raw === '') {
    return fallback;
  }
  if (!/^\d+$/.test(raw)) {
    throw new QidoQueryError(`${name} must be a whole number.`, name);
  }
  return Math.min(Number(raw), max);
}

/**
 * Reads a search's query string for `level`: matching keys of that level and above (a series
 * search may match study attributes too), paging and includefield.
 */
export function parseQidoQuery(
  query: Record<string, string | string[] | undefined>,
  level: QidoLevel,
): QidoQuery {
  const allowed = LEVEL_ORDER.slice(0, LEVEL_ORDER.indexOf(level) + 1);
  const result: QidoQuery = {
    matches: [],
    limit: toInteger(single(query.limit), MAX_QIDO_LIMIT, MAX_QIDO_LIMIT, 'limit'),
    offset: toInteger(single(query.offset), 0, Number.MAX_SAFE_INTEGER, 'offset'),
    includeFields: [],
    ignored: [],
  };
  for (const [name, raw] of Object.entries(query)) {
    if (raw === undefined) {
      continue;
    }
    const values = Array.isArray(raw) ? raw : [raw];
    if (name === 'includefield') {
      const fields = values.flatMap((value) => value.split(','));
      if (fields.includes('all')) {
        result.includeFields = 'all';
      } else if (result.includeFields !== 'all') {
        for (const field of fields) {
          const tag = tagOf(field.trim());
          if (tag) {
            result.includeFields.push(tag);
          } else {
            result.ignored.push(field);
          }
        }
      }
      continue;
    }
    if (PAGING.has(name)) {
      continue;
    }
    const key = keyOf(name);
    if (!key || !allowed.includes(key.level)) {
      result.ignored.push(name);
      continue;
    }
    for (const value of values) {
      if (value !== '' && value !== '*') {
        checkValue(key, value);
        result.matches.push({ key, value });
      }
    }
  }
  return result;
}

/** Refuses a date, number or UID that cannot match anything, before any SQL is built. */
function checkValue(key: MatchKey, value: string): void {
  try {
    if (key.matching === 'date') {
      const bounds = value.split('-');
      if (bounds.length > 2 || bounds.every((bound) => bound === '')) {
        throw new QidoQueryError(`"${value}" is not a date or a range of dates.`, key.keyword);
      }
      bounds.filter(Boolean).forEach(dicomDate);
    } else if (key.matching === 'number') {
      if (!/^-?\d{1,10}$/.test(value) || Math.abs(Number(value)) > MAX_INTEGER) {
        throw new QidoQueryError(`"${value}" is not a whole number this attribute can hold.`, key.keyword);
      }
    } else if (key.matching === 'uid') {
      if (!value.split(/[,\\]/).every((uid) => isUid(uid.trim()))) {
        throw new QidoQueryError(`"${value}" is not a UID or a list of UIDs.`, key.keyword);
      }
    }
  } catch (err) {
    if (err instanceof QidoQueryError) {
      throw new QidoQueryError(err.message, key.keyword);
    }
    throw err;
  }
}

function single(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value.at(-1) : value;
}

/** DICOM wildcards (`*`, `?`) as an SQL LIKE pattern, everything else literal. */
function likePattern(value: string): string {
  return value
    .replace(/[\\%_]/g, (char) => `\\${char}`)
    .replaceAll('*', '%')
    .replaceAll('?', '_');
}

/** A DA value as YYYY-MM-DD; a date that does not exist (month 13, 30 February) is refused. */
function dicomDate(value: string): string {
  const digits = value.replaceAll('.', '');
  const [year, month, day] = [digits.slice(0, 4), digits.slice(4, 6), digits.slice(6, 8)].map(Number);
  const date = new Date(Date.UTC(year!, month! - 1, day));
  const isReal =
    /^\d{8}$/.test(digits) &&
    date.getUTCFullYear() === year &&
    date.getUTCMonth() === month! - 1 &&
    date.getUTCDate() === day;
  if (!isReal) {
    throw new QidoQueryError(`"${value}" is not a date (YYYYMMDD).`, '');
  }
  return `${digits.slice(0, 4)}-${digits.slice(4, 6)}-${digits.slice(6, 8)}`;
}

/** The condition one matching key puts on `column` (PS3.4 C.2.2.2). */
export function conditionOf(matching: Matching, column: SQLWrapper, value: string): SQL {
  switch (matching) {
    case 'uid': {
      // A list of UIDs, separated by commas or backslashes (PS3.18 8.3.4.1).
      const uids = value.split(/[,\\]/).map((uid) => uid.trim());
      return sql`${column} = any(${sql.param(uids)}::text[])`;
    }
    case 'date': {
      if (!value.includes('-')) {
        return sql`${column} = ${dicomDate(value)}::date`;
      }
      const [from = '', to = ''] = value.split('-');
      const lower = from ? sql`${column} >= ${dicomDate(from)}::date` : sql`true`;
      const upper = to ? sql`${column} <= ${dicomDate(to)}::date` : sql`true`;
      return sql`(${lower} and ${upper})`;
    }
    case 'number':
      return sql`${column} = ${Number(value)}`;
    case 'modalities': {
      const modalities = value.split(/[,\\]/).map((modality) => modality.trim());
      return sql`${column} && ${sql.param(modalities)}::text[]`;
    }
    case 'name':
      // Names match without regard to case, with wildcards (as most archives do).
      return sql`${column} ilike ${likePattern(value)} escape '\\'`;
    case 'text':
      return value.includes('*') || value.includes('?')
        ? sql`${column} like ${likePattern(value)} escape '\\'`
        : sql`${column} = ${value}`;
  }
}
