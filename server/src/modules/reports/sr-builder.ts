import {
  code,
  codeValueItem,
  container,
  element,
  evidence,
  imageItem,
  numItem,
  scoordItem,
  templateOf,
  textItem,
  uidFromUuid,
  uidItem,
  writePart10,
  type Dataset,
} from './dicom-dataset.js';
import { CONCEPTS, measure, pixelSpacingOf } from './measurements.js';
import {
  documentHeader,
  LANGUAGE,
  observerContext,
  referenceTo,
  type DocumentContext,
  type ReportedAnnotation,
  type StudyInstance,
} from './report-document.js';

/*
 * The radiologist's analysis as a DICOM Structured Report: TID 1500 Measurement Report in an
 * Enhanced SR (PS3.16 TID 1500, 1501, 1600; PS3.3 A.35.2). Each annotation is a measurement group
 * whose number is inferred from the region drawn (SCOORD) on the frame it was drawn on; the note is
 * the report's impression.
 */

export const ENHANCED_SR = '1.2.840.10008.5.1.4.1.1.88.22';

const CODES = {
  report: code('126000', 'DCM', 'Imaging Measurement Report'),
  procedureReported: code('121058', 'DCM', 'Procedure reported'),
  imagingProcedure: code('363679005', 'SCT', 'Imaging procedure'),
  imageLibrary: code('111028', 'DCM', 'Image Library'),
  imageLibraryGroup: code('126200', 'DCM', 'Image Library Group'),
  measurements: code('126010', 'DCM', 'Imaging Measurements'),
  measurementGroup: code('125007', 'DCM', 'Measurement Group'),
  trackingIdentifier: code('112039', 'DCM', 'Tracking Identifier'),
  trackingUid: code('112040', 'DCM', 'Tracking Unique Identifier'),
  qualitativeEvaluations: code('C0034375', 'UMLS', 'Qualitative Evaluations'),
  impression: code('121073', 'DCM', 'Impression'),
} as const;

export interface MeasurementReportInput {
  context: DocumentContext;
  /** The author's annotations; each names a frame of one of `context.instances`. */
  annotations: ReportedAnnotation[];
  /** The author's note, not empty. */
  note: string;
}

/** One annotation as a measurement group (TID 1501), or undefined when it names no known instance. */
function measurementGroup(annotation: ReportedAnnotation, instance: StudyInstance, index: number): Dataset {
  const spacing = pixelSpacingOf(instance.metadata, annotation.frame);
  const measurement = measure(annotation.kind, annotation.points, spacing);
  const region = scoordItem('INFERRED FROM', measurement.graphType, measurement.graphData, [
    imageItem('SELECTED FROM', referenceTo(instance, annotation.frame)),
  ]);
  const finding = measurement.value
    ? numItem('CONTAINS', measurement.value.concept, measurement.value.value, measurement.value.unit, [
        region,
      ])
    : textItem('CONTAINS', CONCEPTS.finding, annotation.label || annotation.kind, [region]);
  return container('CONTAINS', CODES.measurementGroup, [
    textItem(
      'HAS OBS CONTEXT',
      CODES.trackingIdentifier,
      annotation.label || `${annotation.kind} ${index + 1}`,
    ),
    uidItem('HAS OBS CONTEXT', CODES.trackingUid, uidFromUuid(annotation.uid)),
    finding,
  ]);
}

/** The Enhanced SR Part 10 file of the analysis. */
export function buildMeasurementReport(input: MeasurementReportInput): Buffer {
  const { context } = input;
  const drawn = input.annotations.flatMap((annotation) => {
    const instance = context.instances.get(annotation.sopInstanceUid);
    return instance ? [{ annotation, instance }] : [];
  });
  const referenced = [...new Map(drawn.map(({ instance }) => [instance.sopInstanceUid, instance])).values()];
  const children: Dataset[] = [
    LANGUAGE,
    ...observerContext(context.observerName),
    codeValueItem('HAS CONCEPT MOD', CODES.procedureReported, CODES.imagingProcedure),
  ];
  if (drawn.length > 0) {
    children.push(
      container('CONTAINS', CODES.imageLibrary, [
        container(
          'CONTAINS',
          CODES.imageLibraryGroup,
          referenced.map((instance) => imageItem('CONTAINS', referenceTo(instance, 1))),
        ),
      ]),
      container(
        'CONTAINS',
        CODES.measurements,
        drawn.map(({ annotation, instance }, index) => measurementGroup(annotation, instance, index)),
      ),
    );
  }
  children.push(
    container('CONTAINS', CODES.qualitativeEvaluations, [textItem('CONTAINS', CODES.impression, input.note)]),
  );
  const root = container(undefined, CODES.report, children);
  return writePart10({
    ...documentHeader(context, {
      sopClassUid: ENHANCED_SR,
      modality: 'SR',
      seriesDescription: 'Measurement report',
    }),
    ...root,
    ...templateOf('1500'),
    // SR Document General: completed by its author, not verified by another.
    '0040A491': element('CS', 'COMPLETE'),
    '0040A493': element('CS', 'UNVERIFIED'),
    '0040A372': element('SQ'),
    ...(referenced.length > 0 &&
      evidence(
        context.studyInstanceUid,
        referenced.map((instance) => ({ ...instance, ...referenceTo(instance, 1) })),
      )),
  });
}
