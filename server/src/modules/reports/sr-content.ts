/*
 * Reading SR content items (PS3.3 C.17.3) out of stored DICOM JSON, forgivingly: every accessor
 * answers undefined or an empty list for what is missing or not of the expected shape, so that a
 * report written wrongly (or to hurt) is read as far as it makes sense and no further.
 */

/** A dataset or sequence item as DICOM JSON (PS3.18 F.2), not trusted to be well formed. */
export type JsonItem = Record<string, unknown>;

export const TAGS = {
  valueType: '0040A040',
  conceptName: '0040A043',
  content: '0040A730',
  codeValue: '00080100',
  codingScheme: '00080102',
  codeMeaning: '00080104',
  textValue: '0040A160',
  personName: '0040A123',
  measuredValue: '0040A300',
  numericValue: '0040A30A',
  units: '004008EA',
  graphicType: '00700023',
  graphicData: '00700022',
  referencedSop: '00081199',
  referencedSopInstance: '00081155',
  referencedFrame: '00081160',
} as const;

function isItem(value: unknown): value is JsonItem {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The values of an element; [] when it is absent or has none. */
export function valuesOf(item: JsonItem, tag: string): unknown[] {
  const element = item[tag];
  const values = isItem(element) ? element.Value : undefined;
  return Array.isArray(values) ? values : [];
}

/** The items of a sequence element. */
export function itemsOf(item: JsonItem, tag: string): JsonItem[] {
  return valuesOf(item, tag).filter(isItem);
}

/** The first value as trimmed text; undefined when it is no text. */
export function textOf(item: JsonItem | undefined, tag: string): string | undefined {
  const value = item ? valuesOf(item, tag)[0] : undefined;
  return typeof value === 'string' ? value.trim() : undefined;
}

/** A coded concept's value, scheme and meaning, '' where absent. */
export interface Concept {
  value: string;
  scheme: string;
  meaning: string;
}

export function conceptOf(item: JsonItem | undefined, tag: string = TAGS.conceptName): Concept | undefined {
  const code = item ? itemsOf(item, tag)[0] : undefined;
  if (!code) {
    return undefined;
  }
  return {
    value: textOf(code, TAGS.codeValue) ?? '',
    scheme: textOf(code, TAGS.codingScheme) ?? '',
    meaning: textOf(code, TAGS.codeMeaning) ?? '',
  };
}

export function isConcept(concept: Concept | undefined, value: string, scheme: string): boolean {
  return concept?.value === value && concept.scheme === scheme;
}

/** A content item's value type (CONTAINER, NUM, SCOORD, IMAGE, TEXT, PNAME…). */
export function valueTypeOf(item: JsonItem): string | undefined {
  return textOf(item, TAGS.valueType);
}

export function childrenOf(item: JsonItem): JsonItem[] {
  return itemsOf(item, TAGS.content);
}

/** A number value (DS as text, FL as a number); undefined unless finite. */
export function numberOf(value: unknown): number | undefined {
  const number = typeof value === 'string' ? Number(value.trim() || Number.NaN) : value;
  return typeof number === 'number' && Number.isFinite(number) ? number : undefined;
}

/** A person name's alphabetic group ("Family^Given^Middle^Prefix^Suffix") as it is said: "Prefix Given Middle Family Suffix". */
export function personNameOf(value: unknown): string {
  const alphabetic = isItem(value) ? value.Alphabetic : value;
  if (typeof alphabetic !== 'string') {
    return '';
  }
  const [family = '', given = '', middle = '', prefix = '', suffix = ''] = alphabetic.split('^');
  return [prefix, given, middle, family, suffix]
    .map((part) => part.trim())
    .filter(Boolean)
    .join(' ');
}
