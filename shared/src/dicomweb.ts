import { z } from 'zod';

/** One attribute of a DICOM JSON dataset (PS3.18 F.2): a VR and values, bulk data by reference, or bytes. */
export const dicomJsonElementSchema = z.object({
  vr: z.string(),
  Value: z.array(z.unknown()).optional(),
  BulkDataURI: z.string().optional(),
  InlineBinary: z.string().optional(),
});
export type DicomJsonElement = z.infer<typeof dicomJsonElementSchema>;

/** A dataset keyed by eight hex digits, for example "0020000D" for the Study Instance UID. */
export const dicomJsonDatasetSchema = z.record(z.string().regex(/^[0-9A-F]{8}$/), dicomJsonElementSchema);
export type DicomJsonDataset = z.infer<typeof dicomJsonDatasetSchema>;

/** What QIDO-RS answers (`application/dicom+json`): one dataset per matching study, series or instance. */
export const dicomJsonListSchema = z.array(dicomJsonDatasetSchema);

const TAG = /^[0-9A-F]{8}$/;

/**
 * The same check as `dicomJsonListSchema`, without copying: a series' metadata holds hundreds of
 * datasets of a hundred attributes, which the schema takes tens of milliseconds to copy while a
 * viewer waits for them. Throws on the first attribute that is not DICOM JSON.
 */
export function checkDicomJsonList(value: unknown): DicomJsonDataset[] {
  if (!Array.isArray(value)) {
    throw new TypeError('DICOM JSON: a list of datasets was expected');
  }
  for (const dataset of value as unknown[]) {
    if (typeof dataset !== 'object' || dataset === null || Array.isArray(dataset)) {
      throw new TypeError('DICOM JSON: a dataset is not an object');
    }
    for (const [tag, element] of Object.entries(dataset)) {
      const { vr, Value, BulkDataURI, InlineBinary } = (element ?? {}) as Record<string, unknown>;
      const isElement =
        TAG.test(tag) &&
        typeof vr === 'string' &&
        (Value === undefined || Array.isArray(Value)) &&
        (BulkDataURI === undefined || typeof BulkDataURI === 'string') &&
        (InlineBinary === undefined || typeof InlineBinary === 'string');
      if (!isElement) {
        throw new TypeError(`DICOM JSON: attribute ${tag} is not an element`);
      }
    }
  }
  return value as DicomJsonDataset[];
}

/** The tags the web app reads from QIDO-RS answers and metadata. */
export const DICOM_TAGS = {
  studyInstanceUid: '0020000D',
  seriesInstanceUid: '0020000E',
  sopInstanceUid: '00080018',
  sopClassUid: '00080016',
  modality: '00080060',
  seriesNumber: '00200011',
  seriesDescription: '0008103E',
  instanceNumber: '00200013',
  numberOfFrames: '00280008',
  numberOfSeriesRelatedInstances: '00201209',
  rows: '00280010',
  columns: '00280011',
} as const;

/** The first value of an attribute as a string ('' when it has none); a person name's alphabetic form. */
export function firstValue(dataset: DicomJsonDataset, tag: string): string {
  const value = dataset[tag]?.Value?.[0];
  if (typeof value === 'string' || typeof value === 'number') {
    return String(value);
  }
  const alphabetic =
    value && typeof value === 'object' ? (value as { Alphabetic?: unknown }).Alphabetic : undefined;
  return typeof alphabetic === 'string' ? alphabetic : '';
}
