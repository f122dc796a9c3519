import type { AnnotationFrame, MeasurementReport, ReportedAnnotation } from '@ra/shared';
import { formatShortDate } from '../lib/dates';

/*
 * The measurements of a study's Structured Reports as the viewer shows them: each with an id of
 * its own (never a UUID, so it can never be taken for one of the user's annotations), labelled
 * with the report it comes from.
 */

/** One report's measurement, ready to draw and to list. */
export interface ReportedMeasurement extends ReportedAnnotation {
  /** The drawn annotation's id: "report:" and the report's SOP Instance UID and the measurement's place in it. */
  uid: string;
  /** The label drawn: the report's name, then the measurement's. */
  shownLabel: string;
}

const REPORTED_PREFIX = 'report:';

/** Whether a drawn annotation's id is a report's measurement's. */
export function isReportedUid(uid: string): boolean {
  return uid.startsWith(REPORTED_PREFIX);
}

/** What a report is called: its series description, else "Structured report". */
export function reportName(report: MeasurementReport): string {
  return report.series_description.trim() || 'Structured report';
}

/** "by Dr. Rita Reader, 5/2/24": the author and date a report gives (either may be missing). */
export function reportByline(report: MeasurementReport): string {
  const author = report.author.trim();
  const date = report.content_date ? formatShortDate(report.content_date) : '';
  return [author && `by ${author}`, date].filter(Boolean).join(', ');
}

/** A report's measurements with their ids and shown labels, in the report's order. */
export function measurementsOf(report: MeasurementReport): ReportedMeasurement[] {
  const name = reportName(report);
  return report.annotations.map((annotation, index) => ({
    ...annotation,
    uid: `${REPORTED_PREFIX}${report.sop_instance_uid}:${index + 1}`,
    shownLabel: annotation.label ? `${name}: ${annotation.label}` : name,
  }));
}

/** The measurements of every report drawn on frames of one series. */
export function measurementsOfSeries(reports: readonly MeasurementReport[], seriesUid: string) {
  return reports
    .flatMap(measurementsOf)
    .filter((measurement) => measurement.frame.series_instance_uid === seriesUid);
}

/** "Length 12.5 mm", or the kind when the report gave no label. */
export function measurementText(measurement: Pick<ReportedAnnotation, 'kind' | 'label'>): string {
  return measurement.label || measurement.kind.charAt(0).toUpperCase() + measurement.kind.slice(1);
}

/** The frame of a measurement, as the viewer is asked to show it. */
export type FrameToShow = Pick<AnnotationFrame, 'series_instance_uid' | 'sop_instance_uid' | 'frame'>;
