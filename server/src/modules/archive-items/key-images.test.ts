import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../../../test/test-app.js';
import {
  annotationCalls,
  startAnnotatedArchive,
  type AnnotatedArchive,
} from '../../../test/annotated-archive.js';

/** Key images on an analysis note: PATCH /api/image/:uid `key_images`, shown in `authors[]`. */

let t: TestApp;
let archive: AnnotatedArchive;
let calls: ReturnType<typeof annotationCalls>;

beforeAll(async () => {
  ({ t, archive, calls } = await startAnnotatedArchive());
});
afterAll(() => t.close());

const keyImage = (sop: string, frame = 1) => ({
  sop_instance_uid: sop,
  frame,
  window: { center: 40, width: 400 },
});
const NOT_IN_STUDY = 'This image is not part of the study.';

describe('key images on notes (PATCH /api/image/:uid)', () => {
  it.each([
    ['an instance of another study', () => [keyImage(archive.uids.foreign)], 'key_images', NOT_IN_STUDY],
    [
      'a frame the instance does not have',
      () => [keyImage(archive.uids.first, 2)],
      'key_images',
      NOT_IN_STUDY,
    ],
    [
      'a window without width',
      () => [{ ...keyImage(archive.uids.first), window: { center: 40, width: 0 } }],
      'key_images.0.window.width',
      'Window width must be a positive number.',
    ],
    [
      'more than 50',
      () => Array.from({ length: 51 }, () => keyImage(archive.uids.first)),
      'key_images',
      'Too many key images.',
    ],
  ])('refuses %s', async (_label, keyImages, field, msg) => {
    const { people, items } = archive;
    const response = await calls.patchNote(people.radiologist, items.study, {
      note: 'Refused.',
      key_images: keyImages(),
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().errors[0]).toEqual({ msg, path: field });
    // Nothing was stored: the radiologist has no note on the study yet.
    expect(await calls.keyImagesOf(people.patient, items.study, people.radiologist)).toBeUndefined();
  });

  it('refuses key images on a raster image, and takes an empty list', async () => {
    const { people, items, uids } = archive;
    const response = await calls.patchNote(people.physician, items.image, {
      note: 'x',
      key_images: [keyImage(uids.first)],
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().errors[0]).toEqual({
      msg: 'Only a DICOM study has key images.',
      path: 'key_images',
    });
    expect(await calls.keyImagesOf(people.physician, items.image, people.physician)).toBeUndefined();
    const empty = await calls.patchNote(people.physician, items.image, { note: 'x', key_images: [] });
    expect(empty.statusCode).toBe(200);
    expect(await calls.keyImagesOf(people.physician, items.image, people.physician)).toEqual([]);
  });

  it('stores the author’s key images with the note; an omitted list keeps them, an empty one clears them', async () => {
    const { people, items, uids } = archive;
    const chosen = [
      keyImage(uids.second),
      { ...keyImage(uids.first), window: { center: -600, width: 1500.5 } },
    ];
    const saved = await calls.patchNote(people.radiologist, items.study, {
      note: 'See key images.',
      key_images: chosen,
    });
    expect(saved.json()).toEqual({ success: true, note: 'See key images.' });
    // Shown with where each is in the study (CT_small: series 1; the copies are images 2 and 1).
    const shown = [
      { ...chosen[0]!, series_number: 1, modality: 'CT', instance_number: 2 },
      { ...chosen[1]!, series_number: 1, modality: 'CT', instance_number: 1 },
    ];
    expect(await calls.keyImagesOf(people.patient, items.study, people.radiologist)).toEqual(shown);
    expect(await calls.keyImagesOf(people.physician, items.study, people.radiologist)).toEqual(shown);
    expect(await calls.keyImagesOf(people.radiologist, items.study, people.radiologist)).toEqual(shown);

    const textOnly = await calls.patchNote(people.radiologist, items.study, { note: 'Text only.' });
    expect(textOnly.statusCode).toBe(200);
    expect(await calls.keyImagesOf(people.patient, items.study, people.radiologist)).toEqual(shown);

    const cleared = await calls.patchNote(people.radiologist, items.study, {
      note: 'No key images.',
      key_images: [],
    });
    expect(cleared.statusCode).toBe(200);
    expect(await calls.keyImagesOf(people.patient, items.study, people.radiologist)).toEqual([]);
  });
});
