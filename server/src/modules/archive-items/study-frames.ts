import type { Queryable } from '../../db/client.js';
import * as repo from './archive-items.repository.js';

/** A frame of a study as annotations and key images name it; the series is checked when given. */
export interface FrameReference {
  sopInstanceUid: string;
  seriesInstanceUid?: string;
  /** 1-based, as DICOM numbers frames. */
  frame: number;
}

/**
 * Whether every reference names an instance filed in the study `itemId` (in the series named, when
 * one is), and one of its frames; in one query whatever the number of references.
 */
export async function areFramesOfStudy(
  db: Queryable,
  itemId: string,
  references: readonly FrameReference[],
): Promise<boolean> {
  if (references.length === 0) {
    return true;
  }
  const sopUids = [...new Set(references.map((reference) => reference.sopInstanceUid))];
  const instances = new Map(
    (await repo.findInstancesOfStudy(db, itemId, sopUids)).map((row) => [row.sopInstanceUid, row]),
  );
  return references.every((reference) => {
    const instance = instances.get(reference.sopInstanceUid);
    return (
      instance !== undefined &&
      (reference.seriesInstanceUid === undefined ||
        reference.seriesInstanceUid === instance.seriesInstanceUid) &&
      reference.frame <= instance.numberOfFrames
    );
  });
}
