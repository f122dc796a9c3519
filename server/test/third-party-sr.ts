import dcmjs, { type DcmjsDataset } from 'dcmjs';
import { newUid } from './dicom-files.js';

/*
 * Structured Reports as another workstation writes them (a TID 1500 Measurement Report in a
 * Comprehensive SR, the way OHIF lays one out), written with dcmjs alone, element by element, so
 * that reading them owes nothing to the archive's own SR builder.
 */

export const COMPREHENSIVE_SR = '1.2.840.10008.5.1.4.1.1.88.33';
const CT_IMAGE = '1.2.840.10008.5.1.4.1.1.2';

export type Item = Record<string, { vr: string; Value?: unknown[] }>;

/** One element: its VR and values. */
export const el = (vr: string, ...values: unknown[]) => ({ vr, Value: values });
const coded = (value: string, scheme: string, meaning: string): Item => ({
  '00080100': el('SH', value),
  '00080102': el('SH', scheme),
  '00080104': el('LO', meaning),
});

/** One content item: its relationship, value type and concept, its own elements, its children. */
export function contentItem(
  relationship: string | undefined,
  valueType: string,
  concept: [string, string, string] | undefined,
  own: Item = {},
  children: Item[] = [],
): Item {
  return {
    ...(relationship && { '0040A010': el('CS', relationship) }),
    '0040A040': el('CS', valueType),
    ...(concept && { '0040A043': el('SQ', coded(...concept)) }),
    ...own,
    ...(children.length > 0 && { '0040A730': el('SQ', ...children) }),
  };
}

/** The image a region is drawn on: an IMAGE item SELECTED FROM, with a frame when given. */
export function imageRef(sopInstanceUid: string, frame?: number): Item {
  return contentItem('SELECTED FROM', 'IMAGE', undefined, {
    '00081199': el('SQ', {
      '00081150': el('UI', CT_IMAGE),
      '00081155': el('UI', sopInstanceUid),
      ...(frame !== undefined && { '00081160': el('IS', frame) }),
    }),
  });
}

/** A region (SCOORD) of a graphic type and column, row pairs on `image` (none: no reference). */
export function region(graphicType: string, data: number[], image?: Item): Item {
  return contentItem(
    'INFERRED FROM',
    'SCOORD',
    undefined,
    { '00700023': el('CS', graphicType), '00700022': el('FL', ...data) },
    image ? [image] : [],
  );
}

/** A NUM measurement (value in `unit`, a UCUM code) inferred from `scoord`. */
export function num(meaning: [string, string, string], value: string, unit: string, scoord: Item): Item {
  return contentItem(
    'CONTAINS',
    'NUM',
    meaning,
    {
      '0040A300': el('SQ', { '0040A30A': el('DS', value), '004008EA': el('SQ', coded(unit, 'UCUM', unit)) }),
    },
    [scoord],
  );
}

/** A measurement group (TID 1501) with a Tracking Identifier and its items. */
export function group(tracking: string, items: Item[]): Item {
  return contentItem('CONTAINS', 'CONTAINER', ['125007', 'DCM', 'Measurement Group'], {}, [
    contentItem('HAS OBS CONTEXT', 'TEXT', ['112039', 'DCM', 'Tracking Identifier'], {
      '0040A160': el('UT', tracking),
    }),
    ...items,
  ]);
}

export const LENGTH: [string, string, string] = ['410668003', 'SCT', 'Length'];
export const AREA: [string, string, string] = ['42798000', 'SCT', 'Area'];

/** The study and patient the report belongs to. */
export interface ReportStudy {
  studyUid: string;
  patientName: string;
  birthDate: string;
}

/**
 * The Part 10 file of a Comprehensive SR in the study: TID 1500 with its observer and the given
 * items under Imaging Measurements (or, with `rawContent`, those items as the root's children).
 */
export function thirdPartyReport(
  study: ReportStudy,
  items: Item[],
  options: { observer?: string; seriesDescription?: string; seriesUid?: string; rawContent?: boolean } = {},
): Buffer {
  const sopInstanceUid = newUid();
  const content = options.rawContent
    ? items
    : [
        contentItem('HAS OBS CONTEXT', 'PNAME', ['121008', 'DCM', 'Person Observer Name'], {
          '0040A123': el('PN', { Alphabetic: options.observer ?? 'Other^Reader' }),
        }),
        contentItem('CONTAINS', 'CONTAINER', ['126010', 'DCM', 'Imaging Measurements'], {}, items),
      ];
  const dataset = {
    '00080016': el('UI', COMPREHENSIVE_SR),
    '00080018': el('UI', sopInstanceUid),
    '00080020': el('DA', '20240501'),
    '00080023': el('DA', '20240502'),
    '00080060': el('CS', 'SR'),
    '00080070': el('LO', 'Another Workstation'),
    '0008103E': el('LO', options.seriesDescription ?? 'OHIF measurements'),
    '00100010': el('PN', { Alphabetic: study.patientName }),
    '00100030': el('DA', study.birthDate),
    '0020000D': el('UI', study.studyUid),
    '0020000E': el('UI', options.seriesUid ?? newUid()),
    '00200011': el('IS', 1001),
    '00200013': el('IS', 1),
    '0040A040': el('CS', 'CONTAINER'),
    '0040A043': el('SQ', coded('126000', 'DCM', 'Imaging Measurement Report')),
    '0040A050': el('CS', 'SEPARATE'),
    '0040A491': el('CS', 'COMPLETE'),
    '0040A493': el('CS', 'UNVERIFIED'),
    '0040A730': el('SQ', ...content),
  };
  const meta = {
    '00020001': el('OB', new Uint8Array([0, 1]).buffer),
    '00020002': el('UI', COMPREHENSIVE_SR),
    '00020003': el('UI', sopInstanceUid),
    '00020010': el('UI', '1.2.840.10008.1.2.1'),
    '00020012': el('UI', '1.2.826.0.1.3680043.9.7433.1.1'),
  } as DcmjsDataset;
  const file = new dcmjs.data.DicomDict(meta);
  file.dict = dataset;
  return Buffer.from(file.write());
}
