import { z } from 'zod';
import {
  ANNOTATION_KINDS,
  ANNOTATION_LIMITS,
  ANNOTATION_POINT_COUNTS,
  annotationDataSchema,
  annotationFrameSchema,
  dicomUidField,
} from './annotations.js';

/*
 * Measurements read from the Structured Reports (TID 1500) found in a DICOM study, which the
 * viewer shows read-only beside the archive's own annotations (docs/api.md §15.4). The server
 * takes what it can understand of an uploaded report, within these bounds, and leaves out the rest.
 */

export const REPORTED_ANNOTATION_LIMITS = {
  /** Structured Reports of one study that are read. */
  reports: 20,
  /** Measurements taken from one report. */
  perReport: 500,
  /** Measurements in one answer, all reports together. */
  total: 2_000,
  /** Characters of a label, a series description or an author's name as answered. */
  text: ANNOTATION_LIMITS.label,
} as const;

/** One measurement of a report: drawn like an annotation of its kind on the frame it names. */
export const reportedAnnotationSchema = z
  .object({
    kind: z.enum(ANNOTATION_KINDS),
    frame: annotationFrameSchema,
    data: annotationDataSchema,
    label: z.string().max(REPORTED_ANNOTATION_LIMITS.text),
  })
  .refine((annotation) => annotation.data.points.length === ANNOTATION_POINT_COUNTS[annotation.kind], {
    error: 'A measurement has the points of its kind.',
  });
export type ReportedAnnotation = z.infer<typeof reportedAnnotationSchema>;

/** One Structured Report of the study and the measurements taken from it. */
export const measurementReportSchema = z.object({
  series_instance_uid: dicomUidField('Series Instance UID'),
  sop_instance_uid: dicomUidField('SOP Instance UID'),
  series_description: z.string().max(REPORTED_ANNOTATION_LIMITS.text),
  /** The observer the report names (Person Observer Name), or ''. */
  author: z.string().max(REPORTED_ANNOTATION_LIMITS.text),
  /** YYYY-MM-DD, or '' when the report gives no readable Content Date. */
  content_date: z.union([z.literal(''), z.iso.date()]),
  annotations: z.array(reportedAnnotationSchema).max(REPORTED_ANNOTATION_LIMITS.perReport),
});
export type MeasurementReport = z.infer<typeof measurementReportSchema>;

/** `GET /api/image/:uid/reported-annotations`: reports with at least one measurement drawn on an image. */
export const reportedAnnotationsResponseSchema = z.object({
  reports: z.array(measurementReportSchema).max(REPORTED_ANNOTATION_LIMITS.reports),
});
export type ReportedAnnotationsResponse = z.infer<typeof reportedAnnotationsResponseSchema>;
