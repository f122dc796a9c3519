import { wadors } from '@cornerstonejs/dicom-image-loader';
import { DICOM_TAGS, firstValue, type DicomJsonDataset } from '@ra/shared';

/** JPEG 2000 and High-Throughput JPEG 2000, lossless or not (PS3.5 A.4.4, A.4.11). */
const JPEG_2000_SYNTAXES: ReadonlySet<string> = new Set([
  '1.2.840.10008.1.2.4.90',
  '1.2.840.10008.1.2.4.91',
  '1.2.840.10008.1.2.4.92',
  '1.2.840.10008.1.2.4.93',
  '1.2.840.10008.1.2.4.201',
  '1.2.840.10008.1.2.4.202',
  '1.2.840.10008.1.2.4.203',
]);

/** A frame whose codestream cannot be the image its metadata describes. */
export class UnreadableFrame extends Error {}

/** The image size of a JPEG 2000 codestream: its SIZ segment, which must follow the start of codestream. */
export function jpeg2000Size(bytes: Uint8Array): { rows: number; columns: number } | undefined {
  let start = -1;
  for (let at = 0; at + 1 < bytes.length; at += 1) {
    if (bytes[at] === 0xff && bytes[at + 1] === 0x4f) {
      start = at;
      break;
    }
  }
  // SOC, SIZ, Lsiz and Rsiz (2 bytes each), then Xsiz, Ysiz, XOsiz, YOsiz (4 each, big-endian).
  if (start < 0 || start + 24 > bytes.length || bytes[start + 2] !== 0xff || bytes[start + 3] !== 0x51) {
    return undefined;
  }
  const view = new DataView(bytes.buffer, bytes.byteOffset + start + 8, 16);
  return {
    columns: view.getUint32(0) - view.getUint32(8),
    rows: view.getUint32(4) - view.getUint32(12),
  };
}

/** The transfer syntax a WADO-RS frame answer names in its part's Content-Type. */
export function partTransferSyntax(bytes: Uint8Array): string | undefined {
  const head = new TextDecoder('latin1').decode(bytes.subarray(0, 1024));
  return /transfer-syntax="?([0-9.]+)/i.exec(head)?.[1];
}

/**
 * Throws UnreadableFrame when a frame answer (the multipart body of a WADO-RS frame request)
 * holds a JPEG 2000 codestream without a readable SIZ segment for the image's rows and columns.
 * Why: the JPEG 2000 decoder of the image loader reports a header it cannot read only on the
 * console, and hands back the picture it decoded before (another image) as this one's.
 */
export function checkFrameAnswer(
  bytes: Uint8Array,
  image: { rows: number; columns: number } | undefined,
): void {
  const syntax = partTransferSyntax(bytes);
  if (!image || syntax === undefined || !JPEG_2000_SYNTAXES.has(syntax)) {
    return;
  }
  const size = jpeg2000Size(bytes);
  if (!size || size.rows !== image.rows || size.columns !== image.columns) {
    throw new UnreadableFrame('The JPEG 2000 codestream does not describe this image.');
  }
}

/** checkFrameAnswer for the loader's request of `url`, with the rows and columns of its metadata. */
export function checkFrameResponse(url: string, response: ArrayBuffer): void {
  const dataset = wadors.metaDataManager.get(`wadors:${url}`) as DicomJsonDataset | undefined;
  const image = dataset && {
    rows: Number(firstValue(dataset, DICOM_TAGS.rows)),
    columns: Number(firstValue(dataset, DICOM_TAGS.columns)),
  };
  checkFrameAnswer(new Uint8Array(response), image);
}
