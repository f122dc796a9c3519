import { describe, expect, it } from 'vitest';
import { rasterImageId, rasterMetadata, rgbOfRgba } from './raster-image-loader';

describe('the raster image loader', () => {
  it('drops the alpha of each pixel, keeping red, green and blue in order', () => {
    const rgba = new Uint8ClampedArray([1, 2, 3, 255, 10, 20, 30, 0]);
    expect(Array.from(rgbOfRgba(rgba))).toEqual([1, 2, 3, 10, 20, 30]);
  });

  it('describes a raster image as RGB of 8 bits with no spacing (lengths in px), and nothing else', () => {
    const imageId = rasterImageId('/files/a.png?sig=1');
    expect(imageId).toBe('raster:/files/a.png?sig=1');
    expect(rasterMetadata('imagePixelModule', imageId)).toMatchObject({
      samplesPerPixel: 3,
      photometricInterpretation: 'RGB',
      bitsAllocated: 8,
    });
    expect(rasterMetadata('imagePlaneModule', imageId)).toMatchObject({
      rowPixelSpacing: 1,
      columnPixelSpacing: 1,
      usingDefaultValues: true,
    });
    expect(rasterMetadata('generalSeriesModule', imageId)).toMatchObject({ modality: 'OT' });
    expect(rasterMetadata('imagePixelModule', 'wadors:https://x/frames/1')).toBeUndefined();
  });
});
