import type { AnnotationKind } from '@ra/shared';
import {
  code,
  codeValueItem,
  dicomDateTime,
  element,
  personItem,
  type Dataset,
  type Element,
} from './dicom-dataset.js';

/*
 * What the Structured Report and the Key Object Selection share: what they are given about the
 * study and its author, and the modules every document of the study carries (Patient, General
 * Study, the document's series, General Equipment, SOP Common).
 */

/** DICOM JSON (PS3.18 F.2) as stored for each instance. */
export type DicomJson = Record<string, { vr: string; Value?: unknown[] } | undefined>;

/** An instance of the study that a document names. */
export interface StudyInstance {
  seriesInstanceUid: string;
  sopInstanceUid: string;
  sopClassUid: string;
  numberOfFrames: number;
  /** Its stored attributes (the Pixel Spacing is read from them). */
  metadata: unknown;
}

/** An annotation drawn on a frame of the study. */
export interface ReportedAnnotation {
  /** The annotation's UUID: its Tracking Unique Identifier. */
  uid: string;
  kind: AnnotationKind;
  sopInstanceUid: string;
  frame: number;
  points: [number, number][];
  label: string;
}

/** The study a document belongs to, and the person whose analysis it carries. */
export interface DocumentContext {
  studyInstanceUid: string;
  /** One of the study's own instances: Patient and Study attributes are copied from it. */
  studyAttributes: DicomJson;
  /** The study's instances the document may name, by SOP Instance UID. */
  instances: Map<string, StudyInstance>;
  /** The author as a DICOM person name (Family^Given). */
  observerName: string;
  seriesInstanceUid: string;
  sopInstanceUid: string;
  seriesNumber: number;
  createdAt: Date;
}

export const MANUFACTURER = 'Radiology Archive';

/**
 * Patient and General Study attributes copied from the study's instance: type 2 ones are written
 * empty when the instance lacks them; type 3 ones only when it has them.
 */
const COPIED: [tag: string, vr: string, isType2: boolean][] = [
  ['00100010', 'PN', true], // Patient's Name
  ['00100020', 'LO', true], // Patient ID
  ['00100021', 'LO', false], // Issuer of Patient ID
  ['00100030', 'DA', true], // Patient's Birth Date
  ['00100040', 'CS', true], // Patient's Sex
  ['00080020', 'DA', true], // Study Date
  ['00080030', 'TM', true], // Study Time
  ['00080050', 'SH', true], // Accession Number
  ['00080090', 'PN', true], // Referring Physician's Name
  ['00081030', 'LO', false], // Study Description
  ['00200010', 'SH', true], // Study ID
];

function copied(attributes: DicomJson): Dataset {
  const dataset: Dataset = {};
  for (const [tag, vr, isType2] of COPIED) {
    const values = (attributes[tag]?.Value ?? []).filter((value) => value !== null && value !== '');
    if (values.length > 0) {
      dataset[tag] = { vr, Value: values };
    } else if (isType2) {
      dataset[tag] = { vr, Value: [] };
    }
  }
  return dataset;
}

/** The modules of the document's header, for an SR or KO document of the study. */
export function documentHeader(
  context: DocumentContext,
  document: { sopClassUid: string; modality: 'SR' | 'KO'; seriesDescription: string },
): Dataset {
  const { date, time } = dicomDateTime(context.createdAt);
  const empty: Element = { vr: 'SQ', Value: [] };
  return {
    ...copied(context.studyAttributes),
    '00080005': element('CS', 'ISO_IR 192'),
    '00080012': element('DA', date),
    '00080013': element('TM', time),
    '00080016': element('UI', document.sopClassUid),
    '00080018': element('UI', context.sopInstanceUid),
    '00080021': element('DA', date),
    '00080023': element('DA', date),
    '00080031': element('TM', time),
    '00080033': element('TM', time),
    '00080060': element('CS', document.modality),
    '00080070': element('LO', MANUFACTURER),
    '0008103E': element('LO', document.seriesDescription),
    '00081111': empty,
    '0020000D': element('UI', context.studyInstanceUid),
    '0020000E': element('UI', context.seriesInstanceUid),
    '00200011': element('IS', context.seriesNumber),
    '00200013': element('IS', 1),
  };
}

/** The instance and frame a reference names: the frame only of a multi-frame instance. */
export function referenceTo(instance: StudyInstance, frame: number) {
  return {
    sopClassUid: instance.sopClassUid,
    sopInstanceUid: instance.sopInstanceUid,
    ...(instance.numberOfFrames > 1 && { frame }),
  };
}

export const LANGUAGE = codeValueItem(
  'HAS CONCEPT MOD',
  code('121049', 'DCM', 'Language of Content Item and Descendants'),
  code('en-US', 'RFC5646', 'English (United States)'),
);

/** Observation context (TID 1002): the observer is a person, named. */
export function observerContext(name: string): Dataset[] {
  return [
    codeValueItem('HAS OBS CONTEXT', code('121005', 'DCM', 'Observer Type'), code('121006', 'DCM', 'Person')),
    personItem('HAS OBS CONTEXT', code('121008', 'DCM', 'Person Observer Name'), name),
  ];
}
