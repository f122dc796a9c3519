import { imageViewPath, keyImageSchema, type KeyImage } from '@ra/shared';

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
