import { Readable } from 'node:stream';
import dcmjs from 'dcmjs';
import { readMultipartRelated } from '../src/lib/multipart-related/multipart-related.js';

/** Reading back the SR and KO documents the archive writes (modules/reports), as a client would. */

export type Natural = Record<string, unknown> & { ContentSequence?: Natural[] };

/** A Part 10 file as dcmjs reads it, naturalized (attributes by keyword). */
export function readDocument(file: Buffer): Natural {
  const { dict } = dcmjs.data.DicomMessage.readFile(
    file.buffer.slice(file.byteOffset, file.byteOffset + file.byteLength) as ArrayBuffer,
  );
  return dcmjs.data.DicomMetaDictionary.naturalizeDataset(dict);
}

/** The one item of a sequence (dcmjs gives a sequence of one item as the item or a list). */
export function only(value: unknown): Natural {
  return (Array.isArray(value) ? value[0] : value) as Natural;
}

/** Every content item under `item`, depth first. */
export function contentItems(item: Natural): Natural[] {
  return (item.ContentSequence ?? []).flatMap((child) => [child, ...contentItems(child)]);
}

/** Each NUM content item of a document: its concept, value, unit and the instance it was drawn on. */
export function measurementsIn(document: Natural) {
  return contentItems(document)
    .filter((item) => item.ValueType === 'NUM')
    .map((num) => {
      const measured = only(num.MeasuredValueSequence);
      const scoord = only(num.ContentSequence);
      const image = only(scoord.ContentSequence);
      return {
        concept: only(num.ConceptNameCodeSequence).CodeMeaning,
        value: Number(measured.NumericValue),
        unit: only(measured.MeasurementUnitsCodeSequence).CodeValue,
        sopInstanceUid: only(image.ReferencedSOPSequence).ReferencedSOPInstanceUID,
      };
    });
}

/** The Part 10 files of a WADO-RS `multipart/related; type="application/dicom"` answer. */
export async function filesOfMultipart(body: Buffer, contentType: string): Promise<Buffer[]> {
  const files: Buffer[] = [];
  const limits = { maxParts: 100, maxPartBytes: 64 * 1024 ** 2, maxTotalBytes: 256 * 1024 ** 2 };
  for await (const part of readMultipartRelated(Readable.from([body]), contentType, limits)) {
    files.push(part.body);
  }
  return files;
}
