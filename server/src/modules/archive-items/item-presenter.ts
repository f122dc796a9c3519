import { displayName, type Author, type Image, type KeyImage, type KeyImageView } from '@ra/shared';
import type { AppContext } from '../../context.js';
import type { ImageRow } from './archive-items.repository.js';
import type * as repo from './archive-items.repository.js';
import { studySummaryOf } from './study-summary.js';

type NoteRow = Awaited<ReturnType<typeof repo.listNotesOfImages>>[number];
type KeyImagePlace = Awaited<ReturnType<typeof repo.findKeyImagePlaces>>[number];

/** Key images' places, by item and SOP Instance UID. */
export type KeyImagePlaces = Map<string, KeyImagePlace>;

export const keyImagePlaceKey = (itemId: string, sopInstanceUid: string) => `${itemId}/${sopInstanceUid}`;

function toKeyImageView(itemId: string, keyImage: KeyImage, places: KeyImagePlaces): KeyImageView {
  const place = places.get(keyImagePlaceKey(itemId, keyImage.sop_instance_uid));
  return {
    ...keyImage,
    series_number: place?.seriesNumber ?? null,
    modality: place ? place.modality || null : null,
    instance_number: place?.instanceNumber ?? null,
  };
}

function toAuthor(note: NoteRow, places: KeyImagePlaces): Author {
  return {
    uid: note.authorId,
    role: note.role,
    full_name: displayName({
      title: note.authorTitle,
      first_name: note.authorFirstName,
      last_name: note.authorLastName,
    }),
    note: note.note,
    recommendation:
      note.recommendedFirstName === null
        ? null
        : displayName({
            title: note.recommendedTitle ?? '',
            first_name: note.recommendedFirstName,
            last_name: note.recommendedLastName ?? '',
          }),
    key_images: note.keyImages.map((keyImage) => toKeyImageView(note.imageId, keyImage, places)),
    updatedAt: note.updatedAt.toISOString(),
  };
}

/**
 * Turns image rows and their notes into the wire `Image`, with file URLs freshly signed for this
 * viewer, so that each download is audited against them.
 */
export function presentImages(
  ctx: AppContext,
  viewer: { id: string },
  rows: ImageRow[],
  notes: NoteRow[],
  places: KeyImagePlaces,
): Image[] {
  const notesByImage = new Map<string, Author[]>();
  for (const note of notes) {
    const list = notesByImage.get(note.imageId) ?? [];
    list.push(toAuthor(note, places));
    notesByImage.set(note.imageId, list);
  }
  return rows.map((row) => {
    const audience = { viewerId: viewer.id, patientId: row.patientId };
    return {
      uid: row.id,
      kind: row.kind,
      study: row.study && studySummaryOf(row.study),
      url: ctx.storage.signedUrl(row.storageKey, audience),
      thumbnail_url: row.thumbnailKey ? ctx.storage.signedUrl(row.thumbnailKey, audience) : null,
      content_type: row.contentType,
      width: row.width,
      height: row.height,
      createdAt: row.createdAt.toISOString(),
      patient_uid: row.patientId,
      first_name: row.patientFirstName,
      last_name: row.patientLastName,
      uploadedBy_title: row.uploaderTitle,
      uploadedBy_first_name: row.uploaderFirstName,
      uploadedBy_last_name: row.uploaderLastName,
      authors: notesByImage.get(row.id) ?? [],
    };
  });
}
