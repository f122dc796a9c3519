import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { createDeflateRaw } from 'node:zlib';
import { buffer } from 'node:stream/consumers';
import { newUid } from './dicom-files.js';

/*
 * Hostile DICOM files, built byte by byte (and compressed by dcmtk where a codec is needed), as a
 * penetration test sent them: a deflate bomb, a frame declaring 12000 × 12000 pixels in 2 KB of
 * JPEG-LS, a million private elements. Also a many-frame RLE instance, to read frame by frame.
 */

const run = promisify(execFile);

/** VRs whose length takes four bytes after two reserved ones (PS3.5 7.1.2). */
const LONG_VRS = new Set(['OB', 'OD', 'OF', 'OL', 'OV', 'OW', 'SQ', 'UC', 'UN', 'UR', 'UT']);
const EXPLICIT_LITTLE_ENDIAN = '1.2.840.10008.1.2.1';
const DEFLATED = '1.2.840.10008.1.2.1.99';
const SECONDARY_CAPTURE = '1.2.840.10008.5.1.4.1.1.7';

export interface HostileUids {
  study: string;
  series: string;
  sop: string;
}

export function hostileUids(): HostileUids {
  return { study: newUid(), series: newUid(), sop: newUid() };
}

function header(tag: number, vr: string, length: number): Buffer {
  const isLong = LONG_VRS.has(vr);
  const bytes = Buffer.alloc(isLong ? 12 : 8);
  bytes.writeUInt16LE(tag >>> 16, 0);
  bytes.writeUInt16LE(tag & 0xffff, 2);
  bytes.write(vr, 4, 'latin1');
  if (isLong) {
    bytes.writeUInt32LE(length, 8);
  } else {
    bytes.writeUInt16LE(length, 6);
  }
  return bytes;
}

/** One explicit VR little endian element: its header and its value, as given. */
export function element(tag: number, vr: string, value: Buffer): Buffer {
  return Buffer.concat([header(tag, vr, value.length), value]);
}

const text = (value: string, pad = ' ') => Buffer.from(value.length % 2 ? `${value}${pad}` : value, 'latin1');
const uid = (value: string) => text(value, '\0');
export const us = (value: number) => {
  const bytes = Buffer.alloc(2);
  bytes.writeUInt16LE(value);
  return bytes;
};

function fileMeta(syntax: string, uids: HostileUids): Buffer {
  const meta = Buffer.concat([
    element(0x00020002, 'UI', uid(SECONDARY_CAPTURE)),
    element(0x00020003, 'UI', uid(uids.sop)),
    element(0x00020010, 'UI', uid(syntax)),
  ]);
  const length = Buffer.alloc(4);
  length.writeUInt32LE(meta.length);
  return Buffer.concat([Buffer.alloc(128), Buffer.from('DICM'), element(0x00020000, 'UL', length), meta]);
}

export interface ImageGeometry {
  rows: number;
  columns: number;
  bitsAllocated?: number;
  frames?: number;
}

/** A secondary capture's attributes up to (not including) the Pixel Data; `middle` goes between. */
function imageAttributes(uids: HostileUids, image: ImageGeometry, middle: Buffer[] = []): Buffer {
  const bits = image.bitsAllocated ?? 16;
  return Buffer.concat([
    element(0x00080016, 'UI', uid(SECONDARY_CAPTURE)),
    element(0x00080018, 'UI', uid(uids.sop)),
    element(0x00080060, 'CS', text('OT')),
    element(0x00100010, 'PN', text('Hostile^File')),
    element(0x0020000d, 'UI', uid(uids.study)),
    element(0x0020000e, 'UI', uid(uids.series)),
    ...middle,
    element(0x00280002, 'US', us(1)),
    element(0x00280004, 'CS', text('MONOCHROME2')),
    element(0x00280008, 'IS', text(String(image.frames ?? 1))),
    element(0x00280010, 'US', us(image.rows)),
    element(0x00280011, 'US', us(image.columns)),
    element(0x00280100, 'US', us(bits)),
    element(0x00280101, 'US', us(bits === 16 ? 12 : 8)),
    element(0x00280102, 'US', us(bits === 16 ? 11 : 7)),
    element(0x00280103, 'US', us(0)),
  ]);
}

/**
 * A Deflated Explicit VR Little Endian file whose dataset inflates to about `inflatedBytes`: a frame of
 * zeros of the size it declares (a square of 16-bit pixels), deflated to about a thousandth of that.
 */
export async function deflateBomb(uids: HostileUids, inflatedBytes: number): Promise<Buffer> {
  const side = Math.floor(Math.sqrt(inflatedBytes / 2));
  const pixelBytes = side * side * 2;
  const deflate = createDeflateRaw({ level: 9 });
  const deflated = buffer(deflate);
  deflate.write(imageAttributes(uids, { rows: side, columns: side }));
  deflate.write(header(0x7fe00010, 'OW', pixelBytes));
  const zeros = Buffer.alloc(1024 * 1024);
  for (let left = pixelBytes; left > 0; left -= zeros.length) {
    if (!deflate.write(zeros.subarray(0, Math.min(left, zeros.length)))) {
      await new Promise((resolve) => deflate.once('drain', resolve));
    }
  }
  deflate.end();
  return Buffer.concat([fileMeta(DEFLATED, uids), await deflated]);
}

/** A small image (64 × 64) carrying `count` private LO elements, in odd groups from 1001. */
export function elementBomb(uids: HostileUids, count: number): Buffer {
  const perGroup = 0x10000;
  const elements = Buffer.alloc(count * 10);
  for (let i = 0; i < count; i += 1) {
    const at = i * 10;
    elements.writeUInt16LE(0x1001 + 2 * Math.floor(i / perGroup), at);
    elements.writeUInt16LE(i % perGroup, at + 2);
    elements.write('LO', at + 4, 'latin1');
    elements.writeUInt16LE(2, at + 6);
    elements.write('AB', at + 8, 'latin1');
  }
  const pixels = Buffer.alloc(64 * 64 * 2, 7);
  return Buffer.concat([
    fileMeta(EXPLICIT_LITTLE_ENDIAN, uids),
    imageAttributes(uids, { rows: 64, columns: 64 }, [elements]),
    element(0x7fe00010, 'OW', pixels),
  ]);
}

/** Runs a dcmtk compressor on an uncompressed file written by `write`, and returns what it wrote. */
async function compressed(tool: string, write: (file: string) => Promise<void>): Promise<Buffer> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'ra-hostile-'));
  try {
    const input = path.join(dir, 'in.dcm');
    const output = path.join(dir, 'out.dcm');
    await write(input);
    await run(tool, [input, output]);
    return await fs.readFile(output);
  } finally {
    await fs.rm(dir, { recursive: true, force: true });
  }
}

/**
 * JPEG-LS (lossless) of one 16-bit frame declaring `side` × `side` pixels, all zero: about 2 KB for
 * 12000 × 12000, which decodes to 288 MB. The uncompressed input is written sparse (its pixels a hole).
 */
export function pixelBomb(uids: HostileUids, side = 12000): Promise<Buffer> {
  return compressed('dcmcjpls', async (file) => {
    const pixelBytes = side * side * 2;
    const head = Buffer.concat([
      fileMeta(EXPLICIT_LITTLE_ENDIAN, uids),
      imageAttributes(uids, { rows: side, columns: side }),
      header(0x7fe00010, 'OW', pixelBytes),
    ]);
    await fs.writeFile(file, head);
    await fs.truncate(file, head.length + pixelBytes);
  });
}

/** The uncompressed frames `multiFrameRle` compresses: frame f's pixel i is (f × 7 + i) mod 4096. */
export function multiFrameSamples(
  image: Required<Pick<ImageGeometry, 'rows' | 'columns' | 'frames'>>,
): Buffer {
  const pixels = image.rows * image.columns;
  const samples = Buffer.alloc(pixels * 2 * image.frames);
  for (let frame = 0; frame < image.frames; frame += 1) {
    for (let i = 0; i < pixels; i += 1) {
      samples.writeUInt16LE((frame * 7 + i) % 4096, (frame * pixels + i) * 2);
    }
  }
  return samples;
}

/** An RLE Lossless instance of 16-bit frames (one fragment per frame, with an offset table, by dcmcrle). */
export function multiFrameRle(
  uids: HostileUids,
  image: Required<Pick<ImageGeometry, 'rows' | 'columns' | 'frames'>>,
): Promise<Buffer> {
  return compressed('dcmcrle', async (file) => {
    await fs.writeFile(
      file,
      Buffer.concat([
        fileMeta(EXPLICIT_LITTLE_ENDIAN, uids),
        imageAttributes(uids, image),
        element(0x7fe00010, 'OW', multiFrameSamples(image)),
      ]),
    );
  });
}

/** The fragments of a file's encapsulated Pixel Data, found in its bytes (after the offset table). */
export function fragmentsOf(file: Buffer): Buffer[] {
  const tag = Buffer.from([0xe0, 0x7f, 0x10, 0x00]);
  let at = file.indexOf(tag);
  while (file.readUInt32LE(at + 8) !== 0xffffffff) {
    at = file.indexOf(tag, at + 1);
  }
  at += 12;
  at += 8 + file.readUInt32LE(at + 4);
  const fragments: Buffer[] = [];
  while (file.readUInt32LE(at) === 0xe000fffe) {
    const length = file.readUInt32LE(at + 4);
    fragments.push(file.subarray(at + 8, at + 8 + length));
    at += 8 + length;
  }
  return fragments;
}
