import { Enums, metaData, registerImageLoader, utilities, type Types } from '@cornerstonejs/core';

/**
 * JPEG and PNG archive items in the diagnostic viewer: Cornerstone3D 5 ships no loader for web
 * images (only an example of one), so this one fetches the item's signed URL, lets the browser
 * decode it, and hands Cornerstone the RGB pixels with the few metadata modules its stack viewport
 * and tools read. A raster file has no pixel spacing, so its lengths are in pixels.
 */

const SCHEME = 'raster';

/** The decoded size of each raster image, for its metadata (known once it is loaded). */
const sizes = new Map<string, { rows: number; columns: number }>();

/** The viewer's image id of a raster file at `url` (a signed URL of the archive item's file). */
export function rasterImageId(url: string): string {
  return `${SCHEME}:${url}`;
}

function urlOf(imageId: string): string {
  return imageId.slice(SCHEME.length + 1);
}

/** RGBA as the canvas gives it to RGB: the viewer draws colour images of three components. */
export function rgbOfRgba(rgba: Uint8ClampedArray): Uint8Array {
  const rgb = new Uint8Array((rgba.length / 4) * 3);
  for (let source = 0, target = 0; source < rgba.length; source += 4, target += 3) {
    rgb[target] = rgba[source]!;
    rgb[target + 1] = rgba[source + 1]!;
    rgb[target + 2] = rgba[source + 2]!;
  }
  return rgb;
}

async function decode(url: string, signal: AbortSignal): Promise<ImageData> {
  const response = await fetch(url, { signal });
  if (!response.ok) {
    throw new Error(`The image could not be fetched (HTTP ${response.status}).`);
  }
  // Orientation as the file says (EXIF), as the plain <img> showed it.
  const bitmap = await createImageBitmap(await response.blob(), { imageOrientation: 'from-image' });
  try {
    const canvas = new OffscreenCanvas(bitmap.width, bitmap.height);
    const context = canvas.getContext('2d', { willReadFrequently: true })!;
    context.drawImage(bitmap, 0, 0);
    return context.getImageData(0, 0, bitmap.width, bitmap.height);
  } finally {
    bitmap.close();
  }
}

function toImage(imageId: string, decoded: ImageData): Types.IImage {
  const { width, height } = decoded;
  const pixels = rgbOfRgba(decoded.data);
  sizes.set(imageId, { rows: height, columns: width });
  let canvas: HTMLCanvasElement | undefined;
  return {
    imageId,
    dataType: 'Uint8Array',
    color: true,
    rgba: false,
    numberOfComponents: 3,
    photometricInterpretation: 'RGB',
    rows: height,
    columns: width,
    height,
    width,
    // No spacing in the file: one "millimetre" of the world is one pixel, and the tools say px.
    rowPixelSpacing: 1,
    columnPixelSpacing: 1,
    minPixelValue: 0,
    maxPixelValue: 255,
    slope: 1,
    intercept: 0,
    // The full 8-bit range: the picture as the file has it until brightness or contrast change.
    windowCenter: 127.5,
    windowWidth: 255,
    voiLUTFunction: Enums.VOILUTFunctionType.LINEAR,
    invert: false,
    sizeInBytes: pixels.byteLength,
    getPixelData: () => pixels,
    // The processor renderer draws colour images from a canvas of the file's pixels.
    getCanvas: () => {
      if (!canvas) {
        canvas = document.createElement('canvas');
        canvas.width = width;
        canvas.height = height;
        canvas.getContext('2d')!.putImageData(decoded, 0, 0);
      }
      return canvas;
    },
    voxelManager: utilities.VoxelManager.createImageVoxelManager({
      width,
      height,
      scalarData: pixels,
      numberOfComponents: 3,
    }),
  };
}

function loadRasterImage(imageId: string) {
  const controller = new AbortController();
  return {
    promise: decode(urlOf(imageId), controller.signal).then((decoded) => toImage(imageId, decoded)),
    cancelFn: () => controller.abort(),
  };
}

/** The metadata modules (by their MetadataModules names) the stack viewport and tools ask of a raster image. */
export function rasterMetadata(type: string, imageId: string): unknown {
  if (!imageId.startsWith(`${SCHEME}:`)) {
    return undefined;
  }
  const size = sizes.get(imageId) ?? { rows: 0, columns: 0 };
  switch (type) {
    case 'imagePixelModule':
      return {
        samplesPerPixel: 3,
        photometricInterpretation: 'RGB',
        rows: size.rows,
        columns: size.columns,
        bitsAllocated: 8,
        bitsStored: 8,
        highBit: 7,
        pixelRepresentation: 0,
        planarConfiguration: 0,
      };
    case 'imagePlaneModule':
      return {
        frameOfReferenceUID: imageId,
        rows: size.rows,
        columns: size.columns,
        imageOrientationPatient: [1, 0, 0, 0, 1, 0],
        rowCosines: [1, 0, 0],
        columnCosines: [0, 1, 0],
        imagePositionPatient: [0, 0, 0],
        pixelSpacing: null,
        rowPixelSpacing: 1,
        columnPixelSpacing: 1,
        // Cornerstone's sign that the spacing is made up: lengths are then labelled px.
        usingDefaultValues: true,
      };
    case 'generalSeriesModule':
      return { modality: 'OT', seriesInstanceUID: imageId };
    case 'generalImageModule':
      return { imageType: [] };
    case 'voiLutModule':
      return { windowCenter: [127.5], windowWidth: [255] };
    case 'modalityLutModule':
      return { rescaleSlope: 1, rescaleIntercept: 0 };
    case 'sopCommonModule':
      return {};
    default:
      return undefined;
  }
}

/** Asked before the DICOM providers, which know nothing of raster images. */
const RASTER_PROVIDER_PRIORITY = 10_000;

/** Registers the raster loader and its metadata (once, with the rest of Cornerstone). */
export function registerRasterImageLoader(): void {
  registerImageLoader(SCHEME, loadRasterImage);
  metaData.addProvider(rasterMetadata, RASTER_PROVIDER_PRIORITY);
}
