import { imageViewPath, keyImageSchema, type KeyImage, type KeyImageView } from '@ra/shared';

/*
 * A key image is a link: the item's page with the frame and window in its query, so that it opens
 * the viewer there from the notes, from a bookmark or from a message.
 */

/** The item's page opened on the key image. */
export function keyImagePath(itemUid: string, keyImage: KeyImage): string {
  const query = new URLSearchParams({
    instance: keyImage.sop_instance_uid,
    frame: String(keyImage.frame),
    center: String(keyImage.window.center),
    width: String(keyImage.window.width),
  });
  return `${imageViewPath(itemUid)}&${query.toString()}`;
}

/** The key image a page's query names, or null when it names none or names it wrongly. */
export function keyImageFromSearch(params: URLSearchParams): KeyImage | null {
  const instance = params.get('instance');
  if (instance === null) {
    return null;
  }
  const parsed = keyImageSchema.safeParse({
    sop_instance_uid: instance,
    frame: Number(params.get('frame') ?? '1'),
    window: { center: Number(params.get('center')), width: Number(params.get('width')) },
  });
  return parsed.success ? parsed.data : null;
}

export function isSameFrame(a: KeyImage, b: Pick<KeyImage, 'sop_instance_uid' | 'frame'>): boolean {
  return a.sop_instance_uid === b.sop_instance_uid && a.frame === b.frame;
}

/** "W 400 L 40", as the viewer's overlay writes a window. */
export function windowLabel(window: KeyImage['window']): string {
  return `W ${Math.round(window.width)} L ${Math.round(window.center)}`;
}

/**
 * A key image's label: its number in the note, where it is in the study when known ("CT series 2,
 * image 37", with the frame of a multi-frame image) and its window. A key image just marked and
 * not saved yet has no place until the note is saved.
 */
export function keyImageLabel(index: number, keyImage: KeyImage | KeyImageView): string {
  const place = 'instance_number' in keyImage ? placeOf(keyImage) : '';
  return `Key image ${index + 1}${place ? `: ${place}` : ''} (${windowLabel(keyImage.window)})`;
}

function placeOf(keyImage: KeyImageView): string {
  const series =
    keyImage.series_number === null
      ? ''
      : `${keyImage.modality ? `${keyImage.modality} series` : 'Series'} ${keyImage.series_number}`;
  const image = keyImage.instance_number === null ? '' : `image ${keyImage.instance_number}`;
  const frame = keyImage.frame > 1 ? `frame ${keyImage.frame}` : '';
  return [series, image, frame].filter(Boolean).join(', ');
}
