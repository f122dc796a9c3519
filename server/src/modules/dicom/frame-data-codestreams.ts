/**
 * Reads the headers of JPEG, JPEG-LS and JPEG 2000 codestreams, so a frame whose codestream disagrees
 * with the image's attributes is refused before a codec sees it.
 *
 * Why: the WebAssembly codecs size their output partly from the codestream and partly from the
 * attributes they are given. A JPEG 2000 codestream smaller than Rows × Columns makes the decoder
 * copy out memory past the decoded image (other frames' pixels, left in the shared heap), and a
 * JPEG whose sample precision does not match Bits Allocated makes it write rows of the wrong width.
 */

export interface JpegComponent {
  id: number;
  horizontalSampling: number;
  verticalSampling: number;
}

export interface JpegHeader {
  /** Bits per sample (P of the frame header). */
  precision: number;
  rows: number;
  columns: number;
  components: JpegComponent[];
  /** A JFIF APP0 segment, which makes the samples YCbCr. */
  hasJfif: boolean;
  /** The transform flag of an Adobe APP14 segment (0: stored as RGB, 1: YCbCr); undefined without one. */
  adobeTransform: number | undefined;
  /** The first scan: how many components it holds and, for JPEG-LS, its interleave mode (ILV). */
  firstScan: { componentCount: number; interleaveMode: number };
}

export interface J2kComponent {
  precision: number;
  isSigned: boolean;
  /** Horizontal and vertical subsampling (XRsiz, YRsiz); 1 when the component has every pixel. */
  horizontalSeparation: number;
  verticalSeparation: number;
}

export interface J2kHeader {
  rows: number;
  columns: number;
  components: J2kComponent[];
  /** The multiple component transform of the COD segment, which the decoder undoes (YBR_RCT/ICT to RGB). */
  hasColourTransform: boolean;
}

// Frame headers (SOFn) of JPEG (all processes but the DHT, JPG and DAC codes) and of JPEG-LS (SOF55).
const FRAME_HEADERS: ReadonlySet<number> = new Set([
  0xc0, 0xc1, 0xc2, 0xc3, 0xc5, 0xc6, 0xc7, 0xc9, 0xca, 0xcb, 0xcd, 0xce, 0xcf, 0xf7,
]);
const START_OF_SCAN = 0xda;

function startsWith(bytes: Uint8Array, at: number, text: string): boolean {
  return (
    Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('latin1', at, at + text.length) ===
    text
  );
}

/** The header of a JPEG or JPEG-LS codestream, read up to its first scan; undefined when malformed. */
export function readJpegHeader(bytes: Uint8Array): JpegHeader | undefined {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (bytes.length < 4 || bytes[0] !== 0xff || bytes[1] !== 0xd8) {
    return undefined;
  }
  let frame: Omit<JpegHeader, 'hasJfif' | 'adobeTransform' | 'firstScan'> | undefined;
  let hasJfif = false;
  let adobeTransform: number | undefined;
  let at = 2;
  while (at + 4 <= bytes.length && bytes[at] === 0xff) {
    const marker = bytes[at + 1]!;
    if (marker === 0xff) {
      // A fill byte before the marker.
      at += 1;
      continue;
    }
    if (marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) {
      at += 2;
      continue;
    }
    const length = view.getUint16(at + 2);
    const segment = at + 4;
    const end = at + 2 + length;
    if (length < 2 || end > bytes.length) {
      return undefined;
    }
    if (FRAME_HEADERS.has(marker) && length >= 8) {
      const count = bytes[segment + 5]!;
      if (length < 8 + 3 * count) {
        return undefined;
      }
      const components = Array.from({ length: count }, (_, index) => {
        const sampling = bytes[segment + 7 + 3 * index]!;
        return {
          id: bytes[segment + 6 + 3 * index]!,
          horizontalSampling: sampling >>> 4,
          verticalSampling: sampling & 0x0f,
        };
      });
      frame = {
        precision: bytes[segment]!,
        rows: view.getUint16(segment + 1),
        columns: view.getUint16(segment + 3),
        components,
      };
    } else if (marker === 0xe0 && startsWith(bytes, segment, 'JFIF\0')) {
      hasJfif = true;
    } else if (marker === 0xee && length >= 14 && startsWith(bytes, segment, 'Adobe')) {
      adobeTransform = bytes[segment + 11];
    } else if (marker === START_OF_SCAN) {
      const componentCount = bytes[segment]!;
      const interleaveAt = segment + 2 + 2 * componentCount;
      if (!frame || interleaveAt >= end) {
        return undefined;
      }
      return {
        ...frame,
        hasJfif,
        adobeTransform,
        firstScan: { componentCount, interleaveMode: bytes[interleaveAt]! },
      };
    }
    at = end;
  }
  return undefined;
}

const SOC_SIZ = Buffer.from([0xff, 0x4f, 0xff, 0x51]);
const COD = 0xff52;
const SOT = 0xff90;

/**
 * The main header of a JPEG 2000 codestream (SIZ and COD), raw or inside a JP2 file; undefined when
 * malformed.
 */
export function readJ2kHeader(bytes: Uint8Array): J2kHeader | undefined {
  const start = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).indexOf(SOC_SIZ);
  if (start < 0 || start + 44 > bytes.length) {
    return undefined;
  }
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const sizLength = view.getUint16(start + 4);
  const count = view.getUint16(start + 40);
  if (sizLength !== 38 + 3 * count || start + 4 + sizLength > bytes.length) {
    return undefined;
  }
  const components = Array.from({ length: count }, (_, index) => {
    const at = start + 42 + 3 * index;
    return {
      precision: (bytes[at]! & 0x7f) + 1,
      isSigned: (bytes[at]! & 0x80) !== 0,
      horizontalSeparation: bytes[at + 1]!,
      verticalSeparation: bytes[at + 2]!,
    };
  });
  let hasColourTransform = false;
  // The main header's other segments follow until the first tile-part (SOT).
  let at = start + 4 + sizLength;
  while (at + 4 <= bytes.length) {
    const marker = view.getUint16(at);
    if (marker === SOT || marker >>> 8 !== 0xff) {
      break;
    }
    const length = view.getUint16(at + 2);
    if (marker === COD && length >= 12 && at + 2 + length <= bytes.length) {
      hasColourTransform = bytes[at + 8] === 1;
    }
    at += 2 + Math.max(length, 2);
  }
  return {
    rows: view.getUint32(start + 12) - view.getUint32(start + 20),
    columns: view.getUint32(start + 8) - view.getUint32(start + 16),
    components,
    hasColourTransform,
  };
}
