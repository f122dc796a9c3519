/**
 * A DICOM Person Name ("Family^Given^Middle^Prefix^Suffix", PS3.5 §6.2) as people write it,
 * "Prefix Given Middle Family Suffix". Of the alphabetic, ideographic and phonetic forms
 * ("…=…=…") the first one given is used.
 */
export function personNameOf(dicomName: string): string {
  const form = dicomName.split('=').find((group) => group.trim() !== '') ?? '';
  const [family = '', given = '', middle = '', prefix = '', suffix = ''] = form.split('^');
  return [prefix, given, middle, family, suffix]
    .map((part) => part.trim())
    .filter(Boolean)
    .join(' ');
}
