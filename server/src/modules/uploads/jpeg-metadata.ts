import fs from 'node:fs';
import fsp from 'node:fs/promises';
import { pipeline } from 'node:stream/promises';

const SOI = 0xd8;
const SOS = 0xda;
const APP0 = 0xe0;

/** APP1 (EXIF, XMP), APP3–APP13 (vendor data, IPTC), APP15 and comments can carry who, where and when. */
function isPrivateSegment(marker: number): boolean {
  return marker === 0xe1 || (marker >= 0xe3 && marker <= 0xed) || marker === 0xef || marker === 0xfe;
}

/** An APP1 EXIF segment holding only the Orientation tag (big-endian TIFF, one IFD entry). */
function orientationSegment(orientation: number): Buffer {
  const tiff = Buffer.alloc(26);
  tiff.write('MM', 0, 'latin1');
  tiff.writeUInt16BE(42, 2);
  tiff.writeUInt32BE(8, 4);
  tiff.writeUInt16BE(1, 8);
  tiff.writeUInt16BE(0x0112, 10);
  tiff.writeUInt16BE(3, 12);
  tiff.writeUInt32BE(1, 14);
  tiff.writeUInt16BE(orientation, 18);
  const payload = Buffer.concat([Buffer.from('Exif\0\0', 'latin1'), tiff]);
  const header = Buffer.from([0xff, 0xe1, 0, 0]);
  header.writeUInt16BE(payload.length + 2, 2);
  return Buffer.concat([header, payload]);
}

interface Segment {
  marker: number;
  start: number;
  end: number;
}

/** The segments before the scan data, or undefined when the file is not laid out as expected. */
async function readHeaderSegments(
  file: fsp.FileHandle,
): Promise<{ segments: Segment[]; scanStart: number } | undefined> {
  const head = Buffer.alloc(4);
  await file.read(head, 0, 2, 0);
  if (head.readUInt16BE(0) !== 0xffd8) {
    return undefined;
  }
  const segments: Segment[] = [];
  let position = 2;
  for (;;) {
    const { bytesRead } = await file.read(head, 0, 4, position);
    if (bytesRead < 4 || head[0] !== 0xff) {
      return undefined;
    }
    const marker = head.readUInt8(1);
    if (marker === 0xff) {
      position += 1; // a fill byte
      continue;
    }
    if (marker === SOS) {
      return { segments, scanStart: position };
    }
    const end = position + 2 + head.readUInt16BE(2);
    segments.push({ marker, start: position, end });
    position = end;
  }
}

/**
 * Rewrites a JPEG without its metadata segments, losslessly: the compressed image data is copied
 * byte for byte, so no diagnostic detail is lost to a re-encode. The orientation survives as a
 * one-tag EXIF segment. Writes `target` only when it answers 'stripped'; on 'unparsable' the caller
 * re-encodes the file instead.
 */
export async function stripJpegMetadata(
  source: string,
  target: string,
  orientation: number | undefined,
): Promise<'stripped' | 'clean' | 'unparsable'> {
  const file = await fsp.open(source, 'r');
  let layout: Awaited<ReturnType<typeof readHeaderSegments>>;
  try {
    layout = await readHeaderSegments(file);
  } finally {
    await file.close();
  }
  if (!layout) {
    return 'unparsable';
  }
  if (!layout.segments.some((segment) => isPrivateSegment(segment.marker))) {
    return 'clean';
  }
  const kept = layout.segments.filter((segment) => !isPrivateSegment(segment.marker));
  const out = fs.createWriteStream(target);
  const write = (chunk: Buffer) =>
    new Promise<void>((resolve, reject) => out.write(chunk, (err) => (err ? reject(err) : resolve())));
  const source$ = await fsp.open(source, 'r');
  try {
    await write(Buffer.from([0xff, SOI]));
    const exif = orientation && orientation !== 1 ? orientationSegment(orientation) : undefined;
    // JFIF wants APP0 first; EXIF goes right after it (or right after SOI without one).
    const appZero = kept[0]?.marker === APP0 ? [kept.shift()!] : [];
    for (const segment of [...appZero, ...(exif ? ['exif' as const] : []), ...kept]) {
      if (segment === 'exif') {
        await write(exif!);
        continue;
      }
      const bytes = Buffer.alloc(segment.end - segment.start);
      await source$.read(bytes, 0, bytes.length, segment.start);
      await write(bytes);
    }
  } catch (err) {
    out.destroy();
    throw err;
  } finally {
    await source$.close();
  }
  await pipeline(fs.createReadStream(source, { start: layout.scanStart }), out);
  return 'stripped';
}
