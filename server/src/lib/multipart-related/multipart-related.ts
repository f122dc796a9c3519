import { Readable } from 'node:stream';
import { isToken, isValidBoundary, parseMultipartRelated } from './multipart-related-header.js';
import { MultipartSplitter, type MultipartLimits, type ReadPart } from './multipart-related-splitter.js';

export {
  MultipartError,
  multipartRelatedContentType,
  newBoundary,
  parseMultipartRelated,
} from './multipart-related-header.js';
export { MAX_PART_HEADER_BYTES, type MultipartLimits, type ReadPart } from './multipart-related-splitter.js';

/** One part to send: a buffer, or a stream that is read only as the response is written. */
export interface WritePart {
  contentType: string;
  /** More headers (Content-Location, say); not Content-Type, which `contentType` gives. */
  headers?: Record<string, string>;
  body: Uint8Array | NodeJS.ReadableStream;
}

/** The part's header lines; refuses names and values that would break out of their line. */
function headerBlock(part: WritePart): string {
  const headers: Array<[string, string]> = [
    ['Content-Type', part.contentType],
    ...Object.entries(part.headers ?? {}),
  ];
  const names = new Set<string>();
  for (const [name, value] of headers) {
    if (!isToken(name) || names.has(name.toLowerCase())) {
      throw new TypeError(`"${name}" cannot be a part's header (not a header name, or given twice).`);
    }
    if (/[\r\n\0]/.test(value)) {
      throw new TypeError(`The ${name} header of a part has a line break in its value.`);
    }
    names.add(name.toLowerCase());
  }
  return headers.map(([name, value]) => `${name}: ${value}\r\n`).join('');
}

async function* multipartChunks(parts: AsyncIterable<WritePart>, boundary: string): AsyncGenerator<Buffer> {
  let count = 0;
  for await (const part of parts) {
    // Every delimiter after the first starts with the CRLF that ends the previous part's body.
    yield Buffer.from(`${count === 0 ? '' : '\r\n'}--${boundary}\r\n${headerBlock(part)}\r\n`, 'latin1');
    count += 1;
    if (part.body instanceof Uint8Array) {
      yield Buffer.from(part.body.buffer, part.body.byteOffset, part.body.byteLength);
    } else {
      for await (const chunk of part.body) {
        yield typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
      }
    }
  }
  if (count === 0) {
    // RFC 2046 requires one part at least; the route answers 404 or 204 before writing none.
    throw new RangeError('A multipart body needs one part at least.');
  }
  yield Buffer.from(`\r\n--${boundary}--\r\n`, 'latin1');
}

/**
 * Streams a multipart/related body (RFC 2387, PS3.18 8.6.1.2). Parts are taken from `parts` and their
 * streams read only as fast as the returned stream is consumed, so no instance is held whole. The
 * boundary is the caller's (newBoundary() gives a random one); a part must not contain it. A part
 * whose stream fails fails the returned stream.
 */
export function writeMultipartRelated(parts: AsyncIterable<WritePart>, boundary: string): Readable {
  if (!isValidBoundary(boundary)) {
    throw new RangeError("A multipart boundary is 1 to 70 letters, digits or '()+_,-./:=? and spaces.");
  }
  return Readable.from(multipartChunks(parts, boundary), { objectMode: false });
}

/**
 * Reads a STOW-RS request's multipart/related body part by part, as it arrives: only the part being
 * read is held, up to `limits.maxPartBytes`. Throws MultipartError (the route's 400) for a
 * Content-Type without a valid boundary, a malformed body, or one over the limits. The request
 * stream is never destroyed here, so the route can still answer on its connection.
 */
export async function* readMultipartRelated(
  body: Readable,
  contentTypeHeader: string | undefined,
  limits: MultipartLimits,
): AsyncGenerator<ReadPart> {
  const { boundary } = parseMultipartRelated(contentTypeHeader);
  const splitter = new MultipartSplitter(boundary, limits);
  // Stopping early (an error, or the caller's break) leaves the stream as it is, for the HTTP server.
  const chunks = body.iterator({ destroyOnReturn: false }) as AsyncIterableIterator<Buffer | string>;
  for await (const chunk of chunks) {
    yield* splitter.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
  }
  splitter.end();
}
