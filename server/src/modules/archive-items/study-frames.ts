import type { Queryable } from '../../db/client.js';
import * as repo from './archive-items.repository.js';

/** A frame of a study as annotations and key images name it; the series is checked when given. */
export interface FrameReference {
  sopInstanceUid: string;
  seriesInstanceUid?: string;
  /** 1-based, as DICOM numbers frames. */
  frame: number;
}

/** An instance of a study, as frame references are checked against it. */
export interface StudyInstanceOfFrames {
  sopInstanceUid: string;
  seriesInstanceUid: string;
  numberOfFrames: number;
}

/** Of these SOP Instance UIDs, those filed in the study `itemId`, by UID; in one query. */
export async function instancesOfStudy(
  db: Queryable,
  itemId: string,
  sopInstanceUids: readonly string[],
): Promise<Map<string, StudyInstanceOfFrames>> {
  const sopUids = [...new Set(sopInstanceUids)];
  if (sopUids.length === 0) {
    return new Map();
  }
  const rows = await repo.findInstancesOfStudy(db, itemId, sopUids);
  return new Map(rows.map((row) => [row.sopInstanceUid, row]));
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
  const instances = await instancesOfStudy(
    db,
    itemId,
    references.map((reference) => reference.sopInstanceUid),
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
