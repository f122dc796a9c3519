import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { readDicomSample, withImageSize } from '../../../test/dicom-samples.js';
import { FrameNotDecodable, FrameNotFound, FramesTooLarge, readFrames } from './frame-data.js';

const run = promisify(execFile);
const EXPLICIT_LITTLE_ENDIAN = '1.2.840.10008.1.2.1';
const MAX_PIXELS = 50_000_000;

const read = (file: Buffer, frames: number[], decompress: boolean) =>
  readFrames(file, frames, { decompress, maxPixels: MAX_PIXELS });
const decoded = async (name: string, frame = 1) =>
  Buffer.from((await read(readDicomSample(name), [frame], true)).frames[0]!);

const PIXEL_DATA_TAG = Buffer.from([0xe0, 0x7f, 0x10, 0x00]);

/**
 * The Pixel Data of an explicit little-endian file, found in its bytes, so that the reference the
 * frames are compared with owes nothing to the code under test. The first (7FE0,0010) OB/OW is the
 * top-level one in these files: none has an icon, and some have a trailing padding that holds the
 * bytes of another.
 */
function nativePixelData(file: Buffer): Buffer {
  for (let at = file.indexOf(PIXEL_DATA_TAG); at >= 0; at = file.indexOf(PIXEL_DATA_TAG, at + 1)) {
    const vr = file.toString('latin1', at + 4, at + 6);
    if (vr === 'OB' || vr === 'OW') {
      return file.subarray(at + 12, at + 12 + file.readUInt32LE(at + 8));
    }
  }
  throw new Error('No explicit little-endian Pixel Data.');
}

/** The fragments of an encapsulated Pixel Data (OB, or OW as pydicom wrote some), after its offset table. */
function fragmentsOf(file: Buffer): Buffer[] {
  let at = file.indexOf(PIXEL_DATA_TAG);
  while (file.readUInt32LE(at + 8) !== 0xffffffff) {
    at = file.indexOf(PIXEL_DATA_TAG, at + 1);
  }
  at += 12;
  expect(file.readUInt32LE(at)).toBe(0xe000fffe);
  at += 8 + file.readUInt32LE(at + 4);
  const fragments: Buffer[] = [];
  while (file.readUInt32LE(at) === 0xe000fffe) {
    const length = file.readUInt32LE(at + 4);
    fragments.push(file.subarray(at + 8, at + 8 + length));
    at += 8 + length;
  }
  expect(file.readUInt32LE(at)).toBe(0xe0ddfffe);
  return fragments;
}

/** Runs DCMTK tools on a sample, one after another, and returns the last file written. */
async function dcmtk(sample: string, ...steps: Array<[tool: string, ...options: string[]]>): Promise<Buffer> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'ra-frames-'));
  try {
    let input = path.join(dir, '0.dcm');
    await fs.writeFile(input, readDicomSample(sample));
    for (const [index, [tool, ...options]] of steps.entries()) {
      const output = path.join(dir, `${index + 1}.dcm`);
      await run(tool, [...options, input, output]);
      input = output;
    }
    return await fs.readFile(input);
  } finally {
    await fs.rm(dir, { recursive: true, force: true });
  }
}

/** Mean absolute difference of two byte arrays of the same length. */
function meanDifference(a: Uint8Array, b: Uint8Array): number {
  expect(a.length).toBe(b.length);
  let sum = 0;
  for (let i = 0; i < a.length; i += 1) {
    sum += Math.abs(a[i]! - b[i]!);
  }
  return sum / a.length;
}

describe('uncompressed frames', () => {
  const mrPixels = nativePixelData(readDicomSample('MR_small.dcm'));

  it('decode every lossless encoding of MR_small to its exact pixels, in little-endian order', async () => {
    expect(mrPixels).toHaveLength(64 * 64 * 2);
    const variants = [
      'MR_small.dcm',
      'MR_small_padded.dcm',
      'MR_small_implicit.dcm',
      'MR_small_bigendian.dcm',
      'MR_small_expb.dcm',
      'MR_small_RLE.dcm',
      'MR_small_jpeg_ls_lossless.dcm',
      'MR_small_jp2klossless.dcm',
    ];
    for (const name of variants) {
      const payload = await read(readDicomSample(name), [1], true);
      expect(payload, name).toMatchObject({
        transferSyntaxUid: EXPLICIT_LITTLE_ENDIAN,
        photometricInterpretation: 'MONOCHROME2',
        planarConfiguration: null,
      });
      expect(Buffer.from(payload.frames[0]!).equals(mrPixels), name).toBe(true);
    }
  });

  it('come as stored but in little-endian order when the file is big endian, implicit or deflated', async () => {
    for (const name of ['MR_small_bigendian.dcm', 'MR_small_implicit.dcm']) {
      const payload = await read(readDicomSample(name), [1], false);
      expect(payload.transferSyntaxUid, name).toBe(EXPLICIT_LITTLE_ENDIAN);
      expect(Buffer.from(payload.frames[0]!).equals(mrPixels), name).toBe(true);
    }
    const deflated = await read(readDicomSample('image_dfl.dcm'), [1], false);
    const inflated = await dcmtk('image_dfl.dcm', ['dcmconv', '+te']);
    expect(deflated.transferSyntaxUid).toBe(EXPLICIT_LITTLE_ENDIAN);
    expect(Buffer.from(deflated.frames[0]!).equals(nativePixelData(inflated))).toBe(true);
  });

  it('keep colour-by-plane samples as stored, and say so', async () => {
    const payload = await read(readDicomSample('ExplVR_BigEnd.dcm'), [1], true);
    expect(payload).toMatchObject({ photometricInterpretation: 'RGB', planarConfiguration: 1 });
    expect(payload.frames[0]).toHaveLength(60 * 80 * 3);
  });
});

describe('compressed frames as stored', () => {
  const codestreams: Array<[string, string, number[]]> = [
    ['MR_small_jpeg_ls_lossless.dcm', '1.2.840.10008.1.2.4.80', [0xff, 0xd8, 0xff, 0xf7]],
    ['MR_small_jp2klossless.dcm', '1.2.840.10008.1.2.4.90', [0xff, 0x4f, 0xff, 0x51]],
    // The RLE header: two segments (the high and the low byte of each 16-bit sample), the first at 64.
    ['MR_small_RLE.dcm', '1.2.840.10008.1.2.5', [2, 0, 0, 0, 64, 0, 0, 0]],
    ['SC_rgb_jpeg_dcmtk.dcm', '1.2.840.10008.1.2.4.50', [0xff, 0xd8, 0xff, 0xe0]],
  ];
  for (const [name, syntax, start] of codestreams) {
    it(`${name}: the codestream, its fragments joined, under the file's transfer syntax`, async () => {
      const file = readDicomSample(name);
      const payload = await read(file, [1], false);
      expect(payload.transferSyntaxUid).toBe(syntax);
      const frame = Buffer.from(payload.frames[0]!);
      expect([...frame.subarray(0, start.length)]).toEqual(start);
      expect(frame.equals(Buffer.concat(fragmentsOf(file)))).toBe(true);
    });
  }

  it('keeps the photometric interpretation of the codestream', async () => {
    const payload = await read(readDicomSample('SC_rgb_jpeg_dcmtk.dcm'), [1], false);
    expect(payload).toMatchObject({ photometricInterpretation: 'YBR_FULL', planarConfiguration: 0 });
  });
});

describe('multi-frame images', () => {
  it('give the frames asked for, in the order asked, each once in memory', async () => {
    // rtdose: 15 frames of 10 × 10 32-bit samples.
    const pixels = nativePixelData(await dcmtk('rtdose.dcm', ['dcmconv', '+te']));
    const first = pixels.subarray(0, 400);
    const last = pixels.subarray(14 * 400, 15 * 400);
    expect(first.equals(last)).toBe(false);
    const modes: Array<[string, boolean]> = [
      ['rtdose.dcm', false],
      ['rtdose.dcm', true],
      ['rtdose_expb.dcm', false],
      ['rtdose_rle.dcm', true],
    ];
    for (const [name, decompress] of modes) {
      const { frames } = await read(readDicomSample(name), [15, 1, 15], decompress);
      expect(Buffer.from(frames[0]!).equals(last), name).toBe(true);
      expect(Buffer.from(frames[1]!).equals(first), name).toBe(true);
      expect(frames[2]).toBe(frames[0]);
    }
  });

  it('decode the second frame of a colour RLE image exactly as DCMTK does', async () => {
    const dcmtkPixels = nativePixelData(await dcmtk('SC_rgb_rle_2frame.dcm', ['dcmdrle']));
    const second = await decoded('SC_rgb_rle_2frame.dcm', 2);
    expect(second.equals(dcmtkPixels.subarray(30_000, 60_000))).toBe(true);
    expect(second.equals(await decoded('SC_rgb_rle_2frame.dcm', 1))).toBe(false);
  });
});

describe('decoding JPEG, JPEG-LS and JPEG 2000', () => {
  it('gives what DCMTK decodes, colour JPEG turned from YCbCr to RGB', async () => {
    const samples: Array<[string, string]> = [
      ['SC_rgb_jpeg_dcmtk.dcm', 'RGB'],
      ['SC_rgb_dcmtk_+eb+cy+np.dcm', 'RGB'],
      ['SC_rgb_small_odd_jpeg.dcm', 'RGB'],
      // Stored as RGB (no JFIF segment, no subsampling): given as is, though libjpeg alone would convert it.
      ['SC_jpeg_no_color_transform.dcm', 'RGB'],
      ['SC_rgb_jpeg_gdcm.dcm', 'RGB'],
      ['JPEG-lossy.dcm', 'MONOCHROME2'],
    ];
    for (const [name, photometricInterpretation] of samples) {
      const payload = await read(readDicomSample(name), [1], true);
      const frame = Buffer.from(payload.frames[0]!);
      // An odd number of bytes (3 × 3 × 3) is padded to an even one in the file.
      const dcmtkPixels = nativePixelData(await dcmtk(name, ['dcmdjpeg'])).subarray(0, frame.length);
      expect(payload.photometricInterpretation, name).toBe(photometricInterpretation);
      expect(frame.equals(dcmtkPixels), name).toBe(true);
    }
  });

  it('turns YCbCr labelled RGB into RGB when its subsampled chroma gives it away', async () => {
    const original = await decoded('SC_rgb_rle.dcm');
    // DCMTK believes the label and gives the YCbCr samples as they are.
    const literal = nativePixelData(await dcmtk('SC_rgb_jpeg_lossy_gdcm.dcm', ['dcmdjpeg']));
    expect(meanDifference(literal, original)).toBeGreaterThan(50);
    expect(meanDifference(await decoded('SC_rgb_jpeg_lossy_gdcm.dcm'), original)).toBeLessThan(4);
  });

  it('decodes colour JPEG-LS, whether its samples are interleaved by line, by sample or not at all', async () => {
    const original = nativePixelData(await dcmtk('SC_rgb_rle.dcm', ['dcmdrle']));
    for (const interleave of ['+in', '+il', '+is']) {
      const file = await dcmtk('SC_rgb_rle.dcm', ['dcmdrle'], ['dcmcjpls', '+el', interleave]);
      const payload = await read(file, [1], true);
      expect(payload, interleave).toMatchObject({ photometricInterpretation: 'RGB', planarConfiguration: 0 });
      expect(Buffer.from(payload.frames[0]!).equals(original), interleave).toBe(true);
    }
  });

  it('undoes the colour transform of a YBR_RCT JPEG 2000 image and says RGB', async () => {
    // GDCM's test image: the words red, green and blue on gray.
    const payload = await read(readDicomSample('GDCMJ2K_TextGBR.dcm'), [1], true);
    expect(payload).toMatchObject({ photometricInterpretation: 'RGB', planarConfiguration: 0 });
    const counts = new Map<string, number>();
    const pixels = payload.frames[0]!;
    for (let at = 0; at < pixels.length; at += 3) {
      const colour = pixels.subarray(at, at + 3).join(',');
      counts.set(colour, (counts.get(colour) ?? 0) + 1);
    }
    for (const colour of ['128,128,128', '255,0,0', '0,255,0', '0,0,255']) {
      expect(counts.get(colour) ?? 0, colour).toBeGreaterThan(2000);
    }
  });

  it('decodes signed 16-bit JPEG 2000 to two bytes a sample', async () => {
    for (const name of ['693_J2KI.dcm', 'J2K_pixelrep_mismatch.dcm', 'JPEG2000.dcm']) {
      const payload = await read(readDicomSample(name), [1], true);
      expect(payload.frames[0]!.length, name).toBe(name === 'JPEG2000.dcm' ? 1024 * 256 * 2 : 512 * 512 * 2);
    }
  });
});

describe('what cannot be given', () => {
  it('refuses a frame number the image does not have', async () => {
    const cases: Array<[string, number[]]> = [
      ['MR_small.dcm', [2]],
      ['MR_small.dcm', [0]],
      ['MR_small.dcm', [1.5]],
      ['MR_small.dcm', []],
      ['rtdose.dcm', [1, 16]],
      ['SC_rgb_rle_2frame.dcm', [3]],
    ];
    for (const [name, frames] of cases) {
      for (const decompress of [false, true]) {
        await expect(read(readDicomSample(name), frames, decompress), name).rejects.toThrow(FrameNotFound);
      }
    }
  });

  it('refuses objects without pixels', async () => {
    for (const name of ['test-SR.dcm', 'rtplan.dcm', 'waveform_ecg.dcm']) {
      await expect(read(readDicomSample(name), [1], false), name).rejects.toThrow(FrameNotFound);
    }
  });

  it('refuses, before anything is decoded or copied, frames larger than the limits', async () => {
    const mr = readDicomSample('MR_small_jp2klossless.dcm');
    await expect(readFrames(mr, [1], { decompress: true, maxPixels: 4095 })).rejects.toThrow(FramesTooLarge);
    await expect(readFrames(mr, [1], { decompress: true, maxPixels: 4096 })).resolves.toBeDefined();
    const rtdose = readDicomSample('rtdose.dcm');
    const all = Array.from({ length: 15 }, (_, index) => index + 1);
    const options = { decompress: false, maxPixels: MAX_PIXELS };
    await expect(readFrames(rtdose, all, { ...options, maxTotalBytes: 5999 })).rejects.toThrow(
      FramesTooLarge,
    );
    // A frame asked for twice is made once.
    await expect(readFrames(rtdose, [...all, 1], { ...options, maxTotalBytes: 6000 })).resolves.toBeDefined();
  });

  it('refuses to decode a codestream that disagrees with the image attributes', async () => {
    const taller = withImageSize(readDicomSample('MR_small_jp2klossless.dcm'), 128, 64);
    await expect(read(taller, [1], true)).rejects.toThrow(FrameNotDecodable);
    // As stored, the codestream is still there to be had.
    expect((await read(taller, [1], false)).frames[0]).toHaveLength(fragmentsOf(taller)[0]!.length);
    // pydicom's sample whose SIZ segment was overwritten: it claims 3,722,445,056 columns.
    const overwritten = readDicomSample('JPEG2000-embedded-sequence-delimiter.dcm');
    await expect(read(overwritten, [1], true)).rejects.toThrow(FrameNotDecodable);
  });

  it('refuses a compression it has no decoder for, yet gives its frames as stored', async () => {
    // The same codestream labelled JPEG 2000 Part 2 (the UIDs have the same length).
    const file = readDicomSample('MR_small_jp2klossless.dcm');
    const relabelled = Buffer.from(
      file.toString('latin1').replace('1.2.840.10008.1.2.4.90', '1.2.840.10008.1.2.4.92'),
      'latin1',
    );
    await expect(read(relabelled, [1], true)).rejects.toThrow(FrameNotDecodable);
    expect((await read(relabelled, [1], false)).transferSyntaxUid).toBe('1.2.840.10008.1.2.4.92');
  });

  it('keeps decoding after many codestreams that make the codec fail', async () => {
    const file = readDicomSample('MR_small_jp2klossless.dcm');
    const damaged = Buffer.from(file);
    // The first tile-part claims to run far past the end of the codestream.
    const tilePart = damaged.indexOf(Buffer.from([0xff, 0x90]), damaged.indexOf(Buffer.from([0xff, 0x4f])));
    damaged.writeUInt32BE(0x7fffffff, tilePart + 6);
    for (let attempt = 0; attempt < 20; attempt += 1) {
      await expect(read(damaged, [1], true)).rejects.toThrow(FrameNotDecodable);
    }
    const expected = nativePixelData(readDicomSample('MR_small.dcm'));
    expect(Buffer.from((await read(file, [1], true)).frames[0]!).equals(expected)).toBe(true);
  });
});
