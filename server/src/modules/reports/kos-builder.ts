import { code, container, evidence, imageItem, templateOf, textItem, writePart10 } from './dicom-dataset.js';
import {
  documentHeader,
  LANGUAGE,
  observerContext,
  referenceTo,
  type DocumentContext,
} from './report-document.js';

/*
 * The radiologist's key images as a Key Object Selection document (PS3.3 A.35.4, PS3.16 TID 2010):
 * titled "Of Interest", each key image an IMAGE item naming its instance (and frame of a
 * multi-frame instance).
 */

export const KEY_OBJECT_SELECTION = '1.2.840.10008.5.1.4.1.1.88.59';

const CODES = {
  ofInterest: code('113000', 'DCM', 'Of Interest'),
  description: code('113012', 'DCM', 'Key Object Description'),
} as const;

export interface KeyObjectInput {
  context: DocumentContext;
  /** The key images, in the author's order; those naming no known instance are left out. */
  keyImages: { sopInstanceUid: string; frame: number }[];
  description: string;
}

/** The KOS Part 10 file, or undefined when no key image names an instance of the study. */
export function buildKeyObjectSelection(input: KeyObjectInput): Buffer | undefined {
  const { context } = input;
  const images = input.keyImages.flatMap(({ sopInstanceUid, frame }) => {
    const instance = context.instances.get(sopInstanceUid);
    return instance ? [{ instance, frame }] : [];
  });
  if (images.length === 0) {
    return undefined;
  }
  const root = container(undefined, CODES.ofInterest, [
    LANGUAGE,
    ...observerContext(context.observerName),
    textItem('CONTAINS', CODES.description, input.description),
    ...images.map(({ instance, frame }) => imageItem('CONTAINS', referenceTo(instance, frame))),
  ]);
  return writePart10({
    ...documentHeader(context, {
      sopClassUid: KEY_OBJECT_SELECTION,
      modality: 'KO',
      seriesDescription: 'Key images',
    }),
    ...root,
    ...templateOf('2010'),
    ...evidence(
      context.studyInstanceUid,
      images.map(({ instance }) => ({ ...instance, ...referenceTo(instance, 1) })),
    ),
  });
}
