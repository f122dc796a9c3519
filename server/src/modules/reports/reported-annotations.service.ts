import type { DcmjsDataset } from 'dcmjs';
import {
  REPORTED_ANNOTATION_LIMITS,
  reportedAnnotationSchema,
  type MeasurementReport,
  type ReportedAnnotation,
} from '@ra/shared';
import type { AppContext } from '../../context.js';
import type { Actor } from '../../lib/actor.js';
import { requirePermitted } from '../access/index.js';
import { auditReads } from '../audit/index.js';
import { instancesOfStudy, noteAuthorsOf } from '../archive-items/index.js';
import { readDate } from '../dicom/index.js';
import { structuredReportsOf, type StoredStructuredReport } from '../studies/index.js';
import { reportSeriesOf } from './reports.service.js';
import { observerOf, readMeasurements, type MeasurementRead } from './sr-measurements.js';

/*
 * The measurements of the Structured Reports found in a study (uploaded or received by STOW-RS,
 * written by another workstation), for the viewer to show read-only. The archive's own reports
 * are left out: their measurements are their authors' annotations already.
 */

/**
 * Stored (compressed) metadata of the reports read for one answer, together: the database hands
 * each report over whole and its JSON is read on the thread that answers requests (2.6 MB took
 * 770 ms), so a study's reports past this are left out rather than stall every user.
 */
const MAX_REPORT_BYTES = 1024 ** 2;

const clip = (text: string) => text.slice(0, REPORTED_ANNOTATION_LIMITS.text);

interface ReadReport {
  stored: StoredStructuredReport;
  measurements: MeasurementRead[];
}

/** The measurements that name a frame of the study, with its series; the others are left out. */
async function onFramesOfStudy(
  ctx: AppContext,
  itemId: string,
  reports: ReadReport[],
): Promise<MeasurementReport[]> {
  const instances = await instancesOfStudy(
    ctx.db,
    itemId,
    reports.flatMap((report) => report.measurements.map((measurement) => measurement.sopInstanceUid)),
  );
  return reports.flatMap(({ stored, measurements }) => {
    const annotations = measurements.flatMap((measurement): ReportedAnnotation[] => {
      const instance = instances.get(measurement.sopInstanceUid);
      if (!instance || measurement.frame > instance.numberOfFrames) {
        return [];
      }
      const parsed = reportedAnnotationSchema.safeParse({
        kind: measurement.kind,
        frame: {
          series_instance_uid: instance.seriesInstanceUid,
          sop_instance_uid: instance.sopInstanceUid,
          frame: measurement.frame,
        },
        data: { points: measurement.points },
        label: clip(measurement.label),
      });
      return parsed.success ? [parsed.data] : [];
    });
    if (annotations.length === 0) {
      return [];
    }
    return [
      {
        series_instance_uid: stored.seriesInstanceUid,
        sop_instance_uid: stored.sopInstanceUid,
        series_description: clip(stored.seriesDescription),
        author: clip(observerOf(stored.content, stored.authorObserver)),
        content_date: readDate({ '00080023': stored.contentDate } as DcmjsDataset, '00080023') ?? '',
        annotations,
      },
    ];
  });
}

/**
 * The measurements of the study's Structured Reports that the caller may see: the readers of the
 * item (404 for anyone else, as for a missing item); a raster image has none. A study's read is
 * audited like its annotations'.
 */
export async function listReportedAnnotations(
  ctx: AppContext,
  user: Actor,
  itemId: string,
  ip: string,
): Promise<MeasurementReport[]> {
  await requirePermitted(ctx, user, 'item:read', [itemId]);
  const ownSeries = (await noteAuthorsOf(ctx, itemId)).map((authorId) => reportSeriesOf(itemId, authorId).sr);
  const study = await structuredReportsOf(ctx, itemId, {
    exceptSeries: ownSeries,
    limit: REPORTED_ANNOTATION_LIMITS.reports,
    maxBytes: MAX_REPORT_BYTES,
  });
  if (!study) {
    return [];
  }
  let room = REPORTED_ANNOTATION_LIMITS.total;
  const read = study.reports.map((stored) => {
    const measurements = readMeasurements(
      stored.content,
      Math.min(room, REPORTED_ANNOTATION_LIMITS.perReport),
    );
    room -= measurements.length;
    return { stored, measurements };
  });
  const reports = await onFramesOfStudy(ctx, itemId, read);
  await auditReads(ctx, [
    {
      actorId: user.id,
      patientId: study.patientId,
      action: 'read',
      recordType: 'reported-annotation-list',
      recordId: itemId,
      ip,
    },
  ]);
  return reports;
}
