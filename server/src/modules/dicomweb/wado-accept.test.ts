import { describe, expect, it } from 'vitest';
import { acceptsStoredInstances, frameEncodingFor } from './wado-accept.js';

const JPEG_LS = '1.2.840.10008.1.2.4.80';

describe('WADO-RS content negotiation', () => {
  it('sends instances as stored unless another transfer syntax or media type is demanded', () => {
    expect(acceptsStoredInstances(undefined, [JPEG_LS])).toBe(true);
    expect(acceptsStoredInstances('multipart/related; type="application/dicom"', [JPEG_LS])).toBe(true);
    expect(
      acceptsStoredInstances('multipart/related; type=application/dicom; transfer-syntax=*', [JPEG_LS]),
    ).toBe(true);
    expect(
      acceptsStoredInstances(`multipart/related; type="application/dicom"; transfer-syntax=${JPEG_LS}`, [
        JPEG_LS,
      ]),
    ).toBe(true);
    expect(
      acceptsStoredInstances(
        'multipart/related; type="application/dicom"; transfer-syntax=1.2.840.10008.1.2.1',
        [JPEG_LS],
      ),
    ).toBe(false);
    expect(acceptsStoredInstances('multipart/related; type="application/octet-stream"', [JPEG_LS])).toBe(
      false,
    );
    expect(acceptsStoredInstances('application/json', [JPEG_LS])).toBe(false);
  });

  it('sends frames uncompressed by default, as stored when asked', () => {
    expect(frameEncodingFor(undefined, JPEG_LS)).toBe('uncompressed');
    expect(frameEncodingFor('multipart/related; type="application/octet-stream"', JPEG_LS)).toBe(
      'uncompressed',
    );
    expect(
      frameEncodingFor('multipart/related; type=application/octet-stream; transfer-syntax=*', JPEG_LS),
    ).toBe('stored');
    expect(frameEncodingFor(`multipart/related; type="image/jls"; transfer-syntax=${JPEG_LS}`, JPEG_LS)).toBe(
      'stored',
    );
    expect(
      frameEncodingFor(
        'multipart/related; type="image/jp2"; transfer-syntax=1.2.840.10008.1.2.4.90',
        JPEG_LS,
      ),
    ).toBeUndefined();
    expect(frameEncodingFor('image/png', JPEG_LS)).toBeUndefined();
  });
});
