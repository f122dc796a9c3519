import type { Db } from '../../db/client.js';
import {
  DecodeOverLimit,
  DicomReadError,
  PREVIEW_MESSAGES,
  sopClassName,
  type DecodePool,
} from '../dicom/index.js';
import * as repo from './studies.repository.js';
import type { Storage } from '../storage/index.js';
import type { JobDefinition } from '../../jobs/job-queue.js';

export const STUDY_PREVIEW_JOB = 'study-preview';

/**
 * When a study's preview is drawn after a filing. A study sent in many small requests (STOW-RS
 * batches) would be drawn once per request: at most one drawing per study is queued in a slot of
 * `slotSeconds`.
 * - A person filing from the Upload page sees the preview at once; a filing in a slot already taken
 *   (whose drawing may have started) queues one for the next slot, so the last drawing sees every
 *   instance.
 * - A DICOMweb client sends its batches one after the other, so its filings wait (`isDeferred`):
 *   the slot's drawing starts only once the slot has ended, after every filing made in it, and the
 *   drawing happens after the batches, not between them.
 */
export function studyPreviewThrottle(itemId: string, isDeferred = false) {
  const slotSeconds = isDeferred ? 5 : 2;
  return {
    singletonKey: itemId,
    singletonSeconds: slotSeconds,
    singletonNextSlot: !isDeferred,
    ...(isDeferred && { startAfter: slotSeconds }),
  };
}

export interface StudyPreviewJobData {
  itemId: string;
}

type Instance = Awaited<ReturnType<typeof repo.listSeriesWithImages>>[number]['instances'][number];

/**
 * The middle image of a series: its middle instance, and of a multi-frame one its middle frame,
 * drawn on a decode thread. A file larger than the largest instance read is not read at all.
 */
async function renderMiddle(storage: Storage, decoder: DecodePool, images: Instance[]) {
  const middle = images[Math.floor((images.length - 1) / 2)]!;
  if (middle.size > decoder.maxInstanceBytes || decoder.isOverPixelBound(middle)) {
    throw new DicomReadError(PREVIEW_MESSAGES.tooLarge);
  }
  const bytes = await storage.readAll(middle.storageKey);
  return decoder.renderPreview(bytes, Math.floor((middle.numberOfFrames - 1) / 2));
}

/**
 * Draws a study's preview (the middle image of its first image series, full size, and its
 * 200×200 thumbnail) and a thumbnail per image series. Running it again redraws them, so a study
 * that gained instances gets an up-to-date preview. A study of non-image objects only, or whose
 * pixels cannot be decoded, records why it has no preview.
 */
export function studyPreviewJob(
  db: Db,
  storage: Storage,
  decoder: DecodePool,
): JobDefinition<StudyPreviewJobData> {
  return {
    name: STUDY_PREVIEW_JOB,
    retryLimit: 3,
    async handle({ itemId }) {
      const series = await repo.listSeriesWithImages(db, itemId);
      let preview: { width: number; height: number } | undefined;
      let failure: string | undefined;
      for (const { seriesId, instances } of series) {
        const images = instances.filter((instance) => instance.isImage);
        if (images.length === 0) {
          await repo.setSeriesThumbnail(db, seriesId, null);
          continue;
        }
        try {
          const drawn = await renderMiddle(storage, decoder, images);
          const seriesKey = `thumbnails/series/${seriesId}.webp`;
          await storage.putBuffer(seriesKey, drawn.thumbnail);
          await repo.setSeriesThumbnail(db, seriesId, seriesKey);
          if (!preview) {
            await storage.putBuffer(`previews/${itemId}.png`, drawn.preview);
            await storage.putBuffer(`thumbnails/${itemId}.webp`, drawn.thumbnail);
            preview = { width: drawn.width, height: drawn.height };
          }
        } catch (err) {
          // A file over the read bounds leaves the series without a thumbnail and the study with a
          // note, rather than failing the job, whose retries would read the same file again. A full
          // queue of reads (DecodeBusy) fails the job, to be retried when the threads are free.
          if (err instanceof DecodeOverLimit) {
            failure ??= PREVIEW_MESSAGES.tooLarge;
          } else if (err instanceof DicomReadError) {
            failure ??= err.message;
          } else {
            throw err;
          }
        }
      }
      if (preview) {
        await repo.setStudyPreview(db, itemId, { ...preview, thumbnailKey: `thumbnails/${itemId}.webp` });
        return;
      }
      const kinds = [
        ...new Set(series.flatMap((entry) => entry.instances.map((i) => sopClassName(i.sopClassUid)))),
      ];
      await repo.setStudyPreview(db, itemId, {
        note: failure ?? `No preview: ${kinds.join(', ') || 'no images'}.`,
      });
    },
  };
}
