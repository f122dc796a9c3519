import { createRequire } from 'node:module';
import path from 'node:path';

// dcmjs-imaging is a CommonJS bundle whose exports Node cannot name from ESM, so it is required.
const require = createRequire(import.meta.url);
const imaging = require('dcmjs-imaging') as typeof import('dcmjs-imaging');

export const { DicomImage } = imaging;

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
