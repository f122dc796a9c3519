import { createHash } from 'node:crypto';
import { STUDY_MESSAGES } from '@ra/shared';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { readDicomSample, withImageSize } from '../../../test/dicom-samples.js';
import { assertRenderable, readDicomInstance } from './dicom-instance.js';
import { PREVIEW_MESSAGES } from './dicom-read-error.js';
import { encodePreview, renderFrame, THUMBNAIL_SIZE } from './render-preview.js';

const MAX_PIXELS = 50_000_000;

const render = (name: string, frame = 0) => renderFrame(readDicomSample(name), frame, MAX_PIXELS);

async function refusal(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
    return 'rendered';
  } catch (error) {
    return (error as { reason?: string }).reason ?? String(error);
  }
}

function distinctColours(rgba: Buffer): number {
  const colours = new Set<number>();
  for (let i = 0; i < rgba.length; i += 4) {
    colours.add(rgba.readUIntBE(i, 3));
  }
  return colours.size;
}

function rgbOf(rgba: Buffer): Buffer {
  const rgb = Buffer.alloc((rgba.length / 4) * 3);
  for (let pixel = 0; pixel < rgba.length / 4; pixel += 1) {
    rgba.copy(rgb, pixel * 3, pixel * 4, pixel * 4 + 3);
  }
  return rgb;
}

describe('lossless encodings render pixel for pixel like their uncompressed original', () => {
  const pairs: Array<[string, string[]]> = [
    [
      'MR_small.dcm',
      [
        'MR_small_implicit.dcm',
        'MR_small_bigendian.dcm',
        'MR_small_expb.dcm',
        'MR_small_RLE.dcm',
        'MR_small_jpeg_ls_lossless.dcm',
        'MR_small_jp2klossless.dcm',
        'MR_small_padded.dcm',
      ],
    ],
    // 32-bit grayscale in implicit VR, big endian, RLE and its first frame alone.
    ['rtdose.dcm', ['rtdose_expb.dcm', 'rtdose_rle.dcm', 'rtdose_1frame.dcm', 'rtdose_expb_1frame.dcm']],
    ['liver_1frame.dcm', ['liver_expb_1frame.dcm']],
    // Colour: the same image as RLE (8, 16 and 32 bits), JPEG lossless and JPEG 2000.
    [
      'SC_rgb_rle.dcm',
      [
        'SC_rgb_jpeg_gdcm.dcm',
        'SC_rgb_gdcm_KY.dcm',
        'SC_rgb_rle_16bit.dcm',
        'SC_rgb_rle_32bit.dcm',
        'SC_rgb_rle_2frame.dcm',
      ],
    ],
    // gdcmconv's uncompressed YBR_FULL_422 copy of a JPEG baseline file.
    ['SC_ybr_full_422_uncompressed.dcm', ['SC_rgb_dcmtk_+eb+cy+n2.dcm']],
  ];
  for (const [original, variants] of pairs) {
    it(`${original} and ${variants.length} other encodings`, async () => {
      const expected = await render(original);
      for (const variant of variants) {
        const rendered = await render(variant);
        expect({ width: rendered.width, height: rendered.height }, variant).toEqual({
          width: expected.width,
          height: expected.height,
        });
        expect(rendered.rgba.equals(expected.rgba), variant).toBe(true);
      }
    });
  }

  it('renders colour exactly as DCMTK decodes it', async () => {
    // The uncompressed SC_rgb.dcm is not in the Debian package: this is the SHA-256 of the RGB pixels
    // that `dcmdrle SC_rgb_rle.dcm` writes (with dcmdump +W), 100 × 100 × 3 bytes.
    const dcmtkPixels = '169e619557b12114a7f0be8602026e9abb3d5045804311736ec14cecb026aca9';
    for (const name of ['SC_rgb_rle.dcm', 'SC_rgb_jpeg_gdcm.dcm']) {
      const { rgba } = await render(name);
      expect(createHash('sha256').update(rgbOf(rgba)).digest('hex'), name).toBe(dcmtkPixels);
    }
  });

  it('renders each frame of a multi-frame image', async () => {
    const first = await render('SC_rgb_rle_2frame.dcm', 0);
    const second = await render('SC_rgb_rle_2frame.dcm', 1);
    expect(second.rgba.equals(first.rgba)).toBe(false);
    expect((await render('SC_rgb_rle_16bit_2frame.dcm', 1)).rgba.equals(second.rgba)).toBe(true);
    expect((await render('rtdose_rle.dcm', 14)).rgba.equals((await render('rtdose.dcm', 14)).rgba)).toBe(
      true,
    );
  });
});

describe('every sample image renders', () => {
  const images = [
    'CT_small.dcm',
    'MR_small.dcm',
    'JPEG-lossy.dcm',
    'JPGExtended.dcm',
    'JPEG2000.dcm',
    '693_J2KI.dcm',
    'J2K_pixelrep_mismatch.dcm',
    'GDCMJ2K_TextGBR.dcm',
    'image_dfl.dcm',
    'ExplVR_BigEnd.dcm',
    'SC_jpeg_no_color_transform.dcm',
    'SC_jpeg_no_color_transform_2.dcm',
    'SC_rgb_jpeg_app14_dcmd.dcm',
    'SC_rgb_jpeg_dcmd.dcm',
    'SC_rgb_jpeg_dcmtk.dcm',
    'SC_rgb_jpeg_gdcm.dcm',
    'SC_rgb_jpeg_lossy_gdcm.dcm',
    'SC_rgb_dcmtk_+eb+cr.dcm',
    'SC_rgb_dcmtk_+eb+cy+n1.dcm',
    'SC_rgb_dcmtk_+eb+cy+np.dcm',
    'SC_rgb_dcmtk_+eb+cy+s2.dcm',
    'SC_rgb_dcmtk_+eb+cy+s4.dcm',
    'SC_rgb_gdcm_KY.dcm',
    'SC_rgb_rle_2frame.dcm',
    'SC_rgb_rle_32bit_2frame.dcm',
    'SC_rgb_small_odd.dcm',
    'SC_rgb_small_odd_jpeg.dcm',
    'SC_ybr_full_422_uncompressed.dcm',
    'rtdose.dcm',
    'rtdose_rle.dcm',
    'liver_1frame.dcm',
    'badVR.dcm',
  ];
  for (const name of images) {
    it(`${name}, each of its frames, to Rows × Columns and a PNG and a WebP`, async () => {
      const { rows, columns, numberOfFrames } = readDicomInstance(readDicomSample(name));
      for (let frame = 0; frame < numberOfFrames; frame += 1) {
        const rendered = await render(name, frame);
        expect({ width: rendered.width, height: rendered.height }).toEqual({ width: columns, height: rows });
        expect(rendered.rgba).toHaveLength(rows! * columns! * 4);
        expect(distinctColours(rendered.rgba), `frame ${frame}`).toBeGreaterThan(1);
      }
      const encoded = await encodePreview(await render(name));
      const preview = await sharp(encoded.preview).metadata();
      const thumbnail = await sharp(encoded.thumbnail).metadata();
      expect({ format: preview.format, width: preview.width, height: preview.height }).toEqual({
        format: 'png',
        width: columns,
        height: rows,
      });
      expect(thumbnail.format).toBe('webp');
      expect(Math.max(thumbnail.width, thumbnail.height)).toBe(
        Math.min(THUMBNAIL_SIZE, Math.max(rows!, columns!)),
      );
    });
  }

  it('windows grayscale by the file, else by the frame, and inverts nothing that is MONOCHROME2', async () => {
    // MR_small: Window Center 600, Width 1600 (dcmdump); CT_small has none, so its own range spans 0–255.
    const ct = await render('CT_small.dcm');
    const grays = [...rgbOf(ct.rgba)];
    expect([Math.min(...grays), Math.max(...grays)]).toEqual([0, 255]);
    const mr = await render('MR_small.dcm');
    expect(mr.rgba.equals(ct.rgba)).toBe(false);
  });

  it('encodes a gray frame as one-channel PNG and a colour frame as RGB', async () => {
    expect(
      (await sharp((await encodePreview(await render('CT_small.dcm'))).preview).metadata()).channels,
    ).toBe(1);
    expect(
      (await sharp((await encodePreview(await render('SC_rgb_rle.dcm'))).preview).metadata()).channels,
    ).toBe(3);
  });
});

describe('what cannot be rendered', () => {
  it('refuses, before decoding, a frame whose Rows × Columns exceed the limit', async () => {
    for (const name of ['CT_small.dcm', 'JPEG2000.dcm']) {
      const huge = withImageSize(readDicomSample(name), 60_000, 60_000);
      expect(readDicomInstance(huge)).toMatchObject({ rows: 60_000, columns: 60_000 });
      // Were it decoded, its 8 KB of pixels would fail as unreadable or make the codec allocate 3.6 GB.
      expect(await refusal(renderFrame(huge, 0, MAX_PIXELS)), name).toBe(PREVIEW_MESSAGES.tooLarge);
    }
  });

  it('counts every sample of a colour pixel against the limit', () => {
    const colour = { isImage: true, rows: 100, columns: 100, samplesPerPixel: 3 };
    expect(() => assertRenderable(colour, 30_000)).not.toThrow();
    expect(() => assertRenderable(colour, 29_999)).toThrow(PREVIEW_MESSAGES.tooLarge);
  });

  it('refuses objects without pixels, non-DICOM files and damaged files', async () => {
    expect(await refusal(render('test-SR.dcm'))).toBe(PREVIEW_MESSAGES.notRenderable);
    expect(await refusal(render('rtplan.dcm'))).toBe(PREVIEW_MESSAGES.notRenderable);
    expect(await refusal(render('no_meta.dcm'))).toBe(STUDY_MESSAGES.notDicom);
    expect(await refusal(render('MR_truncated.dcm'))).toBe(STUDY_MESSAGES.unreadable);
  });

  it('refuses a JPEG 2000 codestream the codec cannot decode', async () => {
    // pydicom's own note: four bytes of its codestream were overwritten; "almost certainly not a valid JPEG".
    expect(await refusal(render('JPEG2000-embedded-sequence-delimiter.dcm'))).toBe(
      PREVIEW_MESSAGES.notRenderable,
    );
  });

  it('keeps rendering after many codestreams that make the codec fail', async () => {
    const file = readDicomSample('MR_small_jp2klossless.dcm');
    const damaged = Buffer.from(file);
    // The first tile-part claims to run far past the end of the codestream.
    const tilePart = damaged.indexOf(Buffer.from([0xff, 0x90]), damaged.indexOf(Buffer.from([0xff, 0x4f])));
    damaged.writeUInt32BE(0x7fffffff, tilePart + 6);
    for (let attempt = 0; attempt < 20; attempt += 1) {
      expect(await refusal(renderFrame(damaged, 0, MAX_PIXELS))).toBe(PREVIEW_MESSAGES.notRenderable);
    }
    expect((await renderFrame(file, 0, MAX_PIXELS)).rgba.equals((await render('MR_small.dcm')).rgba)).toBe(
      true,
    );
  });

  it('refuses a frame the image does not have', async () => {
    await expect(render('SC_rgb_rle_2frame.dcm', 2)).rejects.toThrow(RangeError);
    await expect(render('CT_small.dcm', -1)).rejects.toThrow(RangeError);
  });
});
