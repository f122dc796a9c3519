import type { AppContext } from '../../context.js';
import type { Queryable } from '../../db/client.js';
import type { ActorFacts } from '../../lib/actor.js';
import { may } from '../access/index.js';
import { annotationsOfAuthor } from '../annotations/index.js';
import { analysisOf } from '../archive-items/index.js';
import { fileGeneratedInstance, removeSeriesInstances, studyForDocuments } from '../studies/index.js';
import { newUid, personName, uidNamed } from './dicom-dataset.js';
import { buildKeyObjectSelection } from './kos-builder.js';
import type { DicomJson, DocumentContext, ReportedAnnotation, StudyInstance } from './report-document.js';
import { buildMeasurementReport } from './sr-builder.js';

/*
 * A radiologist's analysis of a study, as documents filed into the study: their annotations and
 * note as a Structured Report (series SR), their key images as a Key Object Selection (series KO).
 * Each author has one series of each per study, whose UIDs follow from the item and the author;
 * writing the documents again replaces that series' instance.
 */

export const STUDY_REPORTS_JOB = 'study-reports';

export interface StudyReportsJobData {
  itemId: string;
  authorId: string;
  /** Whether the author's address was confirmed when the note was accepted (access decisions read it). */
  emailVerified: boolean;
}

const SERIES_NUMBERS = { sr: 9901, ko: 9902 } as const;

/** The SR and KO series of one author's documents in one study: the same UIDs every time. */
export function reportSeriesOf(itemId: string, authorId: string) {
  return {
    sr: uidNamed(`radiology-archive:sr:${itemId}:${authorId}`),
    ko: uidNamed(`radiology-archive:ko:${itemId}:${authorId}`),
  };
}

/**
 * Queues the writing of a radiologist's documents for a study, inside the transaction that
 * stores their note: the job exists only if the note does, and one job per item and author
 * waits at most (it reads the note as it is when it runs).
 */
export async function queueStudyReports(
  ctx: AppContext,
  tx: Queryable,
  data: StudyReportsJobData,
): Promise<void> {
  await ctx.jobs.send(STUDY_REPORTS_JOB, data, { tx, singletonKey: `${data.itemId}:${data.authorId}` });
}

function reportedAnnotations(rows: Awaited<ReturnType<typeof annotationsOfAuthor>>): ReportedAnnotation[] {
  return rows.flatMap((row) =>
    row.sopInstanceUid && row.frame
      ? [
          {
            uid: row.id,
            kind: row.kind,
            sopInstanceUid: row.sopInstanceUid,
            frame: row.frame,
            points: row.data.points,
            label: row.label,
          },
        ]
      : [],
  );
}

/**
 * Writes (or removes) one radiologist's SR and KO documents in a study so that they match their
 * analysis as it stands: a non-empty note gives an SR, key images a KO; an emptied note, or no
 * key images, removes them. Safe to run again: each run files new instances, then removes those
 * of the same series stored before them.
 */
export async function writeStudyReports(ctx: AppContext, data: StudyReportsJobData): Promise<void> {
  const { itemId, authorId } = data;
  const series = reportSeriesOf(itemId, authorId);
  const analysis = await analysisOf(ctx, itemId, authorId);
  if (!analysis || analysis.kind !== 'study') {
    return;
  }
  const removeBoth = async () => {
    await removeSeriesInstances(ctx, authorId, itemId, series.sr);
    await removeSeriesInstances(ctx, authorId, itemId, series.ko);
  };
  if (analysis.authorRole !== 'RADIOLOGIST' || analysis.note.trim() === '') {
    await removeBoth();
    return;
  }
  const author: ActorFacts = { id: authorId, role: analysis.authorRole, emailVerified: data.emailVerified };
  // The documents are the author's additions to the study: only while they may still write on it.
  if (!(await may(ctx, author, 'note:write', itemId))) {
    ctx.log.info(
      { itemId, authorId },
      'study reports not written: the author may no longer write on the item',
    );
    return;
  }
  const annotations = reportedAnnotations(await annotationsOfAuthor(ctx, itemId, authorId));
  const keyImages = analysis.keyImages.map((key) => ({
    sopInstanceUid: key.sop_instance_uid,
    frame: key.frame,
  }));
  const study = await studyForDocuments(ctx, itemId, [
    ...annotations.map((annotation) => annotation.sopInstanceUid),
    ...keyImages.map((key) => key.sopInstanceUid),
  ]);
  if (!study) {
    return;
  }
  const instances = new Map<string, StudyInstance>(
    study.instances.map((instance) => [instance.sopInstanceUid, instance]),
  );
  const observerName = personName(analysis.authorFirstName, analysis.authorLastName);
  const contextOf = (seriesInstanceUid: string, seriesNumber: number): DocumentContext => ({
    studyInstanceUid: study.studyInstanceUid,
    studyAttributes: study.attributes as DicomJson,
    instances,
    observerName,
    seriesInstanceUid,
    sopInstanceUid: newUid(),
    seriesNumber,
    createdAt: new Date(),
  });

  const report = contextOf(series.sr, SERIES_NUMBERS.sr);
  const sr = buildMeasurementReport({ context: report, annotations, note: analysis.note });
  const selection = contextOf(series.ko, SERIES_NUMBERS.ko);
  const ko = buildKeyObjectSelection({
    context: selection,
    keyImages,
    description: `Key images chosen by ${analysis.authorFirstName} ${analysis.authorLastName}`.trim(),
  });

  await fileGeneratedInstance(ctx, author, study.patientId, 'measurement-report.dcm', sr);
  await removeSeriesInstances(ctx, authorId, itemId, series.sr, report.sopInstanceUid);
  if (ko) {
    await fileGeneratedInstance(ctx, author, study.patientId, 'key-images.dcm', ko);
    await removeSeriesInstances(ctx, authorId, itemId, series.ko, selection.sopInstanceUid);
  } else {
    await removeSeriesInstances(ctx, authorId, itemId, series.ko);
  }
}
