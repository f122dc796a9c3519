import type { FastifySchema } from 'fastify';
import { z } from 'zod';
import { dicomJsonDatasetSchema, dicomJsonListSchema } from '@ra/shared';
import { nonJsonResponse } from '../../plugins/api-docs.js';

/**
 * The schemas of the DICOMweb routes (docs/api.md §13). Path parameters are plain strings: the
 * service checks that they are UIDs and answers its own 400. The rest is described for the OpenAPI
 * document only, since the handlers read it themselves: QIDO-RS matching keys are open-ended, and
 * STOW-RS bodies are read part by part as they arrive.
 */

export const DICOM_JSON = 'application/dicom+json';
const TAGS = ['DICOMweb'];

const uid = (what: string) => z.string().describe(`The ${what} UID.`);
export const studyParams = z.object({ study: uid('Study Instance') });
export const seriesParams = studyParams.extend({ series: uid('Series Instance') });
export const instanceParams = seriesParams.extend({ instance: uid('SOP Instance') });
export const framesParams = instanceParams.extend({
  frames: z.string().describe('Frame numbers from 1, separated by commas: 1,3,5.'),
});
export const renderedFrameParams = instanceParams.extend({
  frames: z.string().describe('One frame number, from 1.'),
});
export const bulkDataParams = instanceParams.extend({
  '*': z.string().describe('The place of the value: its tag, or within a sequence 0040A730/2/0040A160.'),
});

const text = z.string().optional();
/** QIDO-RS query keys (§13.2); any other key is an attribute to match, by keyword or tag. */
const qidoQuerySchema = z.looseObject({
  limit: text.describe('At most 1000 (the default).'),
  offset: text,
  includefield: text.describe('Keywords, tags or all: extra attributes of a stored instance.'),
  fuzzymatching: text.describe('Accepted and ignored.'),
});

export function searchSchema(summary: string, params?: z.ZodType): FastifySchema {
  return {
    summary,
    description:
      'Match on attributes by keyword or tag (PatientName=Doe*, 0020000D=1.2.3); keys not used for ' +
      'matching are named in a Warning header.',
    tags: TAGS,
    ...(params ? { params } : {}),
    documentedOnly: { querystring: qidoQuerySchema },
    response: { 200: nonJsonResponse('The matching datasets.', [DICOM_JSON], dicomJsonListSchema) },
  };
}

export function metadataSchema(summary: string, params: z.ZodType): FastifySchema {
  return {
    summary,
    tags: TAGS,
    params,
    response: {
      200: nonJsonResponse(
        'Every stored instance under the path, without pixel data; large values by BulkDataURI.',
        [DICOM_JSON],
        dicomJsonListSchema,
      ),
    },
  };
}

const IMAGE_TYPES = ['image/jpeg', 'image/png'];

export function imageSchema(summary: string, params: z.ZodType, description: string): FastifySchema {
  return {
    summary,
    description: `${description} JPEG unless the Accept header takes PNG and not JPEG.`,
    tags: TAGS,
    params,
    response: { 200: nonJsonResponse('The image.', IMAGE_TYPES) },
  };
}

const MULTIPART = 'multipart/related';

export function retrieveSchema(summary: string, params: z.ZodType, description: string): FastifySchema {
  return {
    summary,
    description,
    tags: TAGS,
    params,
    response: { 200: nonJsonResponse('A multipart/related body, as the description says.', [MULTIPART]) },
  };
}

export const storeSchema: FastifySchema = {
  summary: 'STOW-RS: store instances',
  description:
    "Physicians and radiologists with a confirmed address (a patient's token gets 403). Without " +
    "patient, a physician's studies wait in their Incoming list; a radiologist must name the patient. " +
    'The answer names what was stored (ReferencedSOPSequence) and what was refused (FailedSOPSequence); ' +
    'a wrong-patient refusal is a JSON 409 (patientMismatchSchema) instead.',
  tags: TAGS,
  consumes: [MULTIPART],
  documentedOnly: {
    querystring: z.object({
      patient: z.string().optional().describe('The uid of the patient to file the studies under.'),
      confirm_patient_mismatch: z
        .enum(['true'])
        .optional()
        .describe('File them although the files name someone else.'),
    }),
    body: z.unknown().describe('multipart/related; type="application/dicom": one DICOM file per part.'),
  },
  response: {
    200: nonJsonResponse('Every instance was stored.', [DICOM_JSON], dicomJsonDatasetSchema),
    202: nonJsonResponse('Some instances were stored, some refused.', [DICOM_JSON], dicomJsonDatasetSchema),
    409: nonJsonResponse('No instance was stored.', [DICOM_JSON], dicomJsonDatasetSchema),
  },
};
