import { z } from 'zod';
import { ROLES } from './roles.js';

/** The measurements and marks a viewer draws on a frame (docs/api.md §15). */
export const ANNOTATION_KINDS = ['length', 'angle', 'ellipse', 'rectangle', 'probe', 'arrow'] as const;
export type AnnotationKind = (typeof ANNOTATION_KINDS)[number];

/**
 * How many points each kind is drawn from: an angle's vertex is its middle point, an ellipse and
 * a rectangle are given by opposite corners of their bounding box, an arrow by its tail then head.
 */
export const ANNOTATION_POINT_COUNTS: Record<AnnotationKind, number> = {
  length: 2,
  angle: 3,
  ellipse: 2,
  rectangle: 2,
  probe: 1,
  arrow: 2,
};

export const ANNOTATION_LIMITS = {
  /** Bytes of `data` as JSON, as sent (before unknown fields are dropped). */
  dataBytes: 16_384,
  label: 255,
  /** Largest absolute coordinate, in image pixels. */
  coordinate: 100_000,
  perAuthorPerItem: 1_000,
  keyImages: 50,
} as const;

export const ANNOTATION_MESSAGES = {
  notInStudy: 'This image is not part of the study.',
  frameOnImage: 'Only a DICOM study has frames.',
  frameRequired: 'Choose the frame of the study.',
  keyImagesOnImage: 'Only a DICOM study has key images.',
  dataTooLong: 'Annotation data is too long.',
  labelTooLong: 'Label is too long.',
  tooMany: 'This image has too many annotations.',
  tooManyKeyImages: 'Too many key images.',
} as const;

/** UTF-8 length of a string, without TextEncoder (shared runs where the DOM and Node types are absent). */
function utf8Bytes(text: string): number {
  let bytes = 0;
  for (const char of text) {
    const code = char.codePointAt(0)!;
    bytes += code < 0x80 ? 1 : code < 0x800 ? 2 : code < 0x10000 ? 3 : 4;
  }
  return bytes;
}

/** A DICOM UID: digits and dots, at most 64 characters (PS3.5 9.1). */
export function dicomUidField(label: string) {
  const message = `${label} must be a DICOM UID.`;
  return z
    .string({ error: message })
    .max(64, { error: message })
    .regex(/^\d+(\.\d+)*$/, { error: message });
}

const frameNumberField = z
  .number({ error: 'Frame must be a whole number from 1.' })
  .int({ error: 'Frame must be a whole number from 1.' })
  .min(1, { error: 'Frame must be a whole number from 1.' });

const COORDINATE_MESSAGE = `Point coordinates must be numbers from -${ANNOTATION_LIMITS.coordinate} to ${ANNOTATION_LIMITS.coordinate}.`;
/** Zod's number refuses NaN and ±Infinity (JSON's 1e999 parses to Infinity). */
const coordinate = z
  .number({ error: COORDINATE_MESSAGE })
  .min(-ANNOTATION_LIMITS.coordinate, { error: COORDINATE_MESSAGE })
  .max(ANNOTATION_LIMITS.coordinate, { error: COORDINATE_MESSAGE });

/** `[x, y]` in image pixels of the frame: x the column, y the row. */
export const pointSchema = z.tuple([coordinate, coordinate], { error: 'A point must be [x, y].' });
export type Point = z.infer<typeof pointSchema>;

/** Unknown fields are dropped (a plain object schema strips them). */
export const annotationDataSchema = z.object(
  { points: z.array(pointSchema, { error: 'Points must be a list of [x, y].' }) },
  { error: 'Annotation data must be an object with points.' },
);
export type AnnotationData = z.infer<typeof annotationDataSchema>;

/** The frame of a study an annotation is drawn on; null for a raster image. */
export const annotationFrameSchema = z.object(
  {
    series_instance_uid: dicomUidField('Series Instance UID'),
    sop_instance_uid: dicomUidField('SOP Instance UID'),
    frame: frameNumberField,
  },
  { error: 'Frame must name a series, an instance and a frame.' },
);
export type AnnotationFrame = z.infer<typeof annotationFrameSchema>;

/** `data` as sent: its size is checked on what arrived, before unknown fields are dropped. */
const dataInput = z
  .unknown()
  .refine((value) => utf8Bytes(JSON.stringify(value ?? null)) <= ANNOTATION_LIMITS.dataBytes, {
    error: ANNOTATION_MESSAGES.dataTooLong,
    abort: true,
  })
  .pipe(annotationDataSchema);

const kindField = z.enum(ANNOTATION_KINDS, {
  error: `Kind must be one of ${ANNOTATION_KINDS.join(', ')}.`,
});

export const saveAnnotationBodySchema = z
  .object({
    kind: kindField,
    frame: annotationFrameSchema.nullable().default(null),
    data: dataInput,
    label: z
      .string({ error: 'Label must be text.' })
      .trim()
      .max(ANNOTATION_LIMITS.label, { error: ANNOTATION_MESSAGES.labelTooLong })
      .default(''),
  })
  .superRefine((body, ctx) => {
    const count = ANNOTATION_POINT_COUNTS[body.kind];
    if (body.data.points.length !== count) {
      ctx.addIssue({
        code: 'custom',
        path: ['data'],
        message: `${/^[aeiou]/.test(body.kind) ? 'An' : 'A'} ${body.kind} has exactly ${count} ${count === 1 ? 'point' : 'points'}.`,
      });
    }
  });
export type SaveAnnotationBody = z.input<typeof saveAnnotationBodySchema>;

export const annotationAuthorSchema = z.object({
  uid: z.uuid(),
  role: z.enum(ROLES),
  full_name: z.string(),
});

export const annotationSchema = z.object({
  uid: z.uuid(),
  author: annotationAuthorSchema,
  kind: z.enum(ANNOTATION_KINDS),
  frame: annotationFrameSchema.nullable(),
  data: annotationDataSchema,
  label: z.string(),
  updatedAt: z.string(),
});
export type Annotation = z.infer<typeof annotationSchema>;

/** Oldest first (creation time, then uid). */
export const annotationListSchema = z.object({ annotations: z.array(annotationSchema) });
export type AnnotationList = z.infer<typeof annotationListSchema>;

export const saveAnnotationResponseSchema = z.object({
  success: z.literal(true),
  annotation: annotationSchema,
});
export type SaveAnnotationResponse = z.infer<typeof saveAnnotationResponseSchema>;

/** A frame the analysis points to, with the window it is best read at. */
export const keyImageSchema = z.object(
  {
    sop_instance_uid: dicomUidField('SOP Instance UID'),
    frame: frameNumberField,
    window: z.object(
      {
        center: z.number({ error: 'Window center must be a number.' }),
        width: z
          .number({ error: 'Window width must be a positive number.' })
          .positive({ error: 'Window width must be a positive number.' }),
      },
      { error: 'Window must have a center and a width.' },
    ),
  },
  { error: 'A key image must name an instance, a frame and a window.' },
);
export type KeyImage = z.infer<typeof keyImageSchema>;

/**
 * A key image as notes show it: where it is in the study, so that its label can say "Series 2 ·
 * Im 37" (all null when the instance is no longer in the study).
 */
export const keyImageViewSchema = keyImageSchema.extend({
  series_number: z.number().int().nullable(),
  modality: z.string().nullable(),
  instance_number: z.number().int().nullable(),
});
export type KeyImageView = z.infer<typeof keyImageViewSchema>;

export const keyImagesField = z
  .array(keyImageSchema, { error: 'Key images must be a list.' })
  .max(ANNOTATION_LIMITS.keyImages, { error: ANNOTATION_MESSAGES.tooManyKeyImages });
