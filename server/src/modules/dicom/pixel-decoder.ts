import { createRequire } from 'node:module';
import path from 'node:path';

// dcmjs-imaging is a CommonJS bundle whose exports Node cannot name from ESM, so it is required.
const require = createRequire(import.meta.url);
const imaging = require('dcmjs-imaging') as typeof import('dcmjs-imaging');

export const { DicomImage } = imaging;

/** What a codec is told of the frame it decodes, named as dcmjs-imaging's own pixel object names it. */
export interface CodecFrame {
  getWidth(): number;
  getHeight(): number;
  getBitsAllocated(): number;
  getBitsStored(): number;
  getSamplesPerPixel(): number;
  getPixelRepresentation(): number;
  getPlanarConfiguration(): number;
  getPhotometricInterpretation(): string;
}

/**
 * The single-frame decoders dcmjs-imaging 0.2.5 keeps on NativePixelDecoder without declaring them
 * (its renderer calls them). Each returns a copy of the decoded samples, never a view of the WASM heap.
 */
export interface FrameCodecs {
  decodeJpeg(
    frame: CodecFrame,
    codestream: Uint8Array,
    options?: { convertColorspaceToRgb?: boolean },
  ): Uint8Array;
  decodeJpegLs(frame: CodecFrame, codestream: Uint8Array): Uint8Array;
  decodeJpeg2000(frame: CodecFrame, codestream: Uint8Array): Uint8Array;
}

/** The codecs (libjpeg-turbo, CharLS, OpenJPEG…) compiled to WebAssembly, beside the bundle. */
const CODECS_PATH = path.join(path.dirname(require.resolve('dcmjs-imaging')), 'dcmjs-native-codecs.wasm');

let initialization: Promise<void> | undefined;

/**
 * Loads the WebAssembly codecs once per process, on first use: about 4 MB compiled in some 40 ms,
 * with a heap that starts at 256 MiB and grows (up to 2 GiB, never shrinking) with the largest frame
 * decoded. A failed load is retried by the next call.
 */
export function initializePixelDecoder(): Promise<void> {
  initialization ??= imaging.NativePixelDecoder.initializeAsync({
    webAssemblyModulePathOrUrl: CODECS_PATH,
  }).catch((error: unknown) => {
    initialization = undefined;
    throw error;
  });
  return initialization;
}

/**
 * Runs one synchronous decode with the codecs loaded. A codec reports a damaged codestream by calling
 * into JavaScript, which throws straight through the WebAssembly: nothing it allocated is freed and
 * its own stack is never unwound, so after about a dozen such failures every later decode in the
 * process fails ("null function", "memory access out of bounds"). After a failure the instance is
 * therefore dropped, and the next decode loads a fresh one (some 50 to 100 ms).
 */
export async function withPixelDecoder<T>(decode: (codecs: FrameCodecs) => T): Promise<T> {
  // Another caller may have dropped the instance while this one waited: load again until one is there.
  while (!imaging.NativePixelDecoder.isInitialized()) {
    await initializePixelDecoder();
  }
  try {
    return decode(imaging.NativePixelDecoder as unknown as FrameCodecs);
  } catch (error) {
    imaging.NativePixelDecoder.release();
    initialization = undefined;
    throw error;
  }
}
