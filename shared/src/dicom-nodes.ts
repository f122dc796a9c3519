import { z } from 'zod';

/**
 * A DICOM Application Entity title (PS3.5 6.2, VR AE): 1 to 16 characters of the default repertoire,
 * no backslash and no control characters. Leading and trailing spaces carry no meaning in DICOM, so
 * they are trimmed; case matters.
 */
export const AE_TITLE_PATTERN = /^[\x20-\x5b\x5d-\x7e]{1,16}$/;

export function aeTitleField(label = 'AE title') {
  const message = `${label} must be 1 to 16 characters (letters, digits, spaces and punctuation other than a backslash).`;
  return z.string({ error: message }).trim().regex(AE_TITLE_PATTERN, { error: message });
}

/** One of the physician's registered DICOM nodes, as their own list shows it. */
export const dicomNodeSchema = z.object({
  ae_title: z.string(),
  host: z.string().nullable(),
  port: z.number().int().nullable(),
  /** Whether studies can be sent to it (it has a host and a port). */
  can_receive: z.boolean(),
});
export type DicomNode = z.infer<typeof dicomNodeSchema>;

export const dicomNodeListSchema = z.object({ nodes: z.array(dicomNodeSchema) });
export type DicomNodeList = z.infer<typeof dicomNodeListSchema>;

/** POST /api/image/:uid/send: which of the physician's nodes receives the study. */
export const sendStudyBodySchema = z.object({ ae_title: aeTitleField('ae_title') });
export type SendStudyBody = z.infer<typeof sendStudyBodySchema>;

export const sendStudyResponseSchema = z.object({ job: z.string() });
export type SendStudyResponse = z.infer<typeof sendStudyResponseSchema>;
