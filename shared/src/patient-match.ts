/** What the files say about their patient (the DICOM Patient's Name is "Family^Given^Middle^…"). */
export interface PatientInFiles {
  name: string;
  /** YYYY-MM-DD, or null when the files give none. */
  birthDate: string | null;
}

export interface ChosenPatient {
  firstName: string;
  lastName: string;
  dob: string;
}

/** Letters and digits only, lower-cased, without accents: "Müller-Lüdenscheidt" → "mullerludenscheidt". */
function normalised(text: string): string {
  return text
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]/gu, '');
}

function words(text: string): string[] {
  return text
    .split(/[\s^,]+/)
    .map(normalised)
    .filter((word) => word.length > 0);
}

/** Whether the name in the files could be the chosen patient's: family name and first given name. */
function nameMatches(name: string, patient: ChosenPatient): boolean {
  const first = words(patient.firstName);
  const last = normalised(patient.lastName);
  if (name.includes('^')) {
    const [family = '', given = ''] = name.split('^');
    return normalised(family) === last && first.every((word) => words(given).includes(word));
  }
  // Some writers put the whole name in one component, in either order.
  const found = words(name);
  return found.includes(last) && first.every((word) => found.includes(word));
}

/**
 * Whether the files name someone other than the chosen patient. Only what the files give counts:
 * an anonymised file with no name or birth date is no evidence either way.
 */
export function namesAnotherPatient(files: PatientInFiles, patient: ChosenPatient): boolean {
  const hasName = words(files.name).length > 0;
  if (hasName && !nameMatches(files.name, patient)) {
    return true;
  }
  return files.birthDate !== null && files.birthDate !== patient.dob;
}

/**
 * Every distinct person the files name (name and birth date as written), with how many files name
 * them, in the order first met: what the wrong-patient guard shows, on the server and on the page.
 */
export function peopleInFiles(
  files: readonly PatientInFiles[],
): { name: string; birth_date: string | null; files: number }[] {
  const people = new Map<string, { name: string; birth_date: string | null; files: number }>();
  for (const file of files) {
    const key = `${file.name}\u0000${file.birthDate ?? ''}`;
    const person = people.get(key) ?? { name: file.name, birth_date: file.birthDate, files: 0 };
    person.files += 1;
    people.set(key, person);
  }
  return [...people.values()];
}
