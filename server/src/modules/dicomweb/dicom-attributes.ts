import type { DicomJsonDataset } from '@ra/shared';
import type { InstanceRow, SeriesRow, StudyRow } from './dicomweb.repository.js';

/**
 * QIDO-RS answers: the attributes each level returns (PS3.18 Table 8.3.4-1..3), as DICOM JSON,
 * from the database's columns.
 */

type Element = DicomJsonDataset[string];

function text(vr: string, value: string | null | undefined): Element {
  return value ? { vr, Value: [value] } : { vr };
}

function number(vr: string, value: number | null | undefined): Element {
  return value === null || value === undefined ? { vr } : { vr, Value: [value] };
}

function personName(value: string): Element {
  return value ? { vr: 'PN', Value: [{ Alphabetic: value }] } : { vr: 'PN' };
}

/** YYYY-MM-DD (our columns) as DICOM's YYYYMMDD. */
function date(value: string | null): Element {
  return text('DA', value?.replaceAll('-', ''));
}

export function studyAttributes(row: StudyRow, retrieveUrl: string): DicomJsonDataset {
  return {
    '00080020': date(row.studyDate),
    '00080030': text('TM', row.studyTime),
    '00080050': text('SH', row.accessionNumber),
    '00080056': text('CS', 'ONLINE'),
    '00080061': row.modalities.length > 0 ? { vr: 'CS', Value: row.modalities } : { vr: 'CS' },
    '00080090': personName(row.referringPhysicianName),
    '00081030': text('LO', row.studyDescription),
    '00081190': text('UR', retrieveUrl),
    '00100010': personName(row.patientNameInFile),
    '00100020': text('LO', row.patientIdInFile),
    '00100030': date(row.patientBirthDateInFile),
    '00100040': text('CS', row.patientSexInFile),
    '0020000D': text('UI', row.studyInstanceUid),
    '00200010': text('SH', row.studyId),
    '00201206': number('IS', row.seriesCount),
    '00201208': number('IS', row.instanceCount),
  };
}

export function seriesAttributes(row: SeriesRow, retrieveUrl: string): DicomJsonDataset {
  return {
    '00080056': text('CS', 'ONLINE'),
    '00080060': text('CS', row.modality),
    '0008103E': text('LO', row.seriesDescription),
    '00081190': text('UR', retrieveUrl),
    '00180015': text('CS', row.bodyPartExamined),
    '0020000D': text('UI', row.studyInstanceUid),
    '0020000E': text('UI', row.seriesInstanceUid),
    '00200011': number('IS', row.seriesNumber),
    '00201209': number('IS', row.seriesInstanceCount),
  };
}

export function instanceAttributes(row: InstanceRow, retrieveUrl: string): DicomJsonDataset {
  return {
    '00080016': text('UI', row.sopClassUid),
    '00080018': text('UI', row.sopInstanceUid),
    '00080056': text('CS', 'ONLINE'),
    '00081190': text('UR', retrieveUrl),
    '00083002': text('UI', row.transferSyntaxUid),
    '0020000D': text('UI', row.studyInstanceUid),
    '0020000E': text('UI', row.seriesInstanceUid),
    '00200013': number('IS', row.instanceNumber),
    '00280008': number('IS', row.numberOfFrames),
    '00280010': number('US', row.rows),
    '00280011': number('US', row.columns),
  };
}

/** Adds the attributes includefield asked for, from an instance that speaks for the result. */
export function withIncludedFields(
  dataset: DicomJsonDataset,
  fields: string[] | 'all',
  source: Record<string, unknown> | undefined,
): DicomJsonDataset {
  if (!source) {
    return dataset;
  }
  const tags = fields === 'all' ? Object.keys(source) : fields;
  const added: DicomJsonDataset = {};
  for (const tag of tags) {
    if (!(tag in dataset) && tag in source) {
      added[tag] = source[tag] as Element;
    }
  }
  // Keys in tag order, as DICOM JSON writers do.
  return Object.fromEntries(Object.entries({ ...dataset, ...added }).sort(([a], [b]) => a.localeCompare(b)));
}
