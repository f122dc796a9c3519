import { isToken, MultipartError } from './multipart-related-header.js';

/** One part of a multipart body as read. */
export interface ReadPart {
  /** Header names in lower case. */
  headers: Record<string, string>;
  /** The part's Content-Type, or text/plain when it has none (RFC 2046 5.1). */
  contentType: string;
  /** The body as it arrived, in pieces of the chunks read (views of them, never changed). */
  chunks: Buffer[];
  /** The body's length in bytes. */
  size: number;
  /** The body in one buffer, joined when first asked for. */
  readonly body: Buffer;
}

/** A part of the body read: its pieces, joined into one buffer only for a caller that asks. */
function readPart(
  headers: Record<string, string>,
  contentType: string,
  chunks: Buffer[],
  size: number,
): ReadPart {
  let joined: Buffer | undefined;
  return {
    headers,
    contentType,
    chunks,
    size,
    get body() {
      joined ??= Buffer.concat(chunks, size);
      return joined;
    },
  };
}

export interface MultipartLimits {
  maxParts: number;
  /** Largest body of one part, in bytes. */
  maxPartBytes: number;
  /** Largest request, in bytes, preamble and epilogue included. */
  maxTotalBytes: number;
}

/** Largest header block of one part; a missing blank line is found out here, not at maxPartBytes. */
export const MAX_PART_HEADER_BYTES = 16 * 1024;
/** Largest transport padding (spaces and tabs) after a boundary, before its line ends. */
const MAX_PADDING_BYTES = 1024;

const CRLF = Buffer.from('\r\n');
const BLANK_LINE = Buffer.from('\r\n\r\n');

type State = 'preamble' | 'boundaryLine' | 'headers' | 'body' | 'epilogue';

function isPadding(bytes: Buffer): boolean {
  return bytes.every((byte) => byte === 0x20 || byte === 0x09);
}

/** A part's header block: `Name: value` lines, a line starting with a space or tab continuing the last. */
function parseHeaders(block: string): Record<string, string> {
  const headers: Record<string, string> = {};
  let last: string | undefined;
  for (const line of block === '' ? [] : block.split('\r\n')) {
    if (/^[ \t]/.test(line) && last !== undefined) {
      headers[last] += ` ${line.trim()}`;
      continue;
    }
    const colon = line.indexOf(':');
    const name = line.slice(0, Math.max(colon, 0)).toLowerCase();
    if (colon < 0 || !isToken(name)) {
      throw new MultipartError('A part has a header line that is not "Name: value".');
    }
    if (name in headers) {
      // Two Content-Types, say, would leave it to chance which one is believed.
      throw new MultipartError(`A part has two ${name} headers.`);
    }
    headers[name] = line.slice(colon + 1).trim();
    last = name;
  }
  return headers;
}

/**
 * Splits a multipart body (RFC 2046 5.1.1) as its chunks arrive. Only the part being read is kept,
 * with fewer than a delimiter's length of bytes that may begin the next delimiter; the preamble and
 * the epilogue are dropped as they come.
 */
export class MultipartSplitter {
  /** CRLF "--" boundary: a delimiter is only that, at the start of a line. */
  private readonly delimiter: Buffer;
  // A CRLF before the first byte, so a delimiter at the very start is found like any other.
  private pending: Buffer = CRLF;
  private state: State = 'preamble';
  private headers: Record<string, string> = {};
  private body: Buffer[] = [];
  private bodyBytes = 0;
  private parts = 0;
  private totalBytes = 0;

  constructor(
    boundary: string,
    private readonly limits: MultipartLimits,
  ) {
    this.delimiter = Buffer.from(`\r\n--${boundary}`, 'latin1');
  }

  /** Takes the next chunk; returns the parts it completes. Throws MultipartError. */
  push(chunk: Buffer): ReadPart[] {
    this.totalBytes += chunk.length;
    if (this.totalBytes > this.limits.maxTotalBytes) {
      throw new MultipartError(`The request is larger than ${this.limits.maxTotalBytes} bytes.`);
    }
    if (this.state === 'epilogue') {
      return [];
    }
    this.pending = this.joined(chunk);
    const parts: ReadPart[] = [];
    while (this.step(parts)) {
      // Each step consumes what it can; the loop ends when a step needs more bytes.
    }
    return parts;
  }

  /**
   * The unread bytes followed by `chunk`. In a body only a short tail is left unread (it may begin a
   * delimiter): when the seam with a chunk at least a delimiter long shows that no delimiter starts in
   * it, it is body for certain and the chunk is read as it is, not copied behind the tail.
   */
  private joined(chunk: Buffer): Buffer {
    if (this.pending.length === 0) {
      return chunk;
    }
    const isSeamWhole = chunk.length >= this.delimiter.length;
    if (this.state === 'body' && this.pending.length < this.delimiter.length && isSeamWhole) {
      const seam = Buffer.concat([this.pending, chunk.subarray(0, this.delimiter.length)]);
      const at = seam.indexOf(this.delimiter);
      if (at < 0 || at >= this.pending.length) {
        this.addBody(this.pending);
        return chunk;
      }
    }
    return Buffer.concat([this.pending, chunk]);
  }

  private addBody(bytes: Buffer): void {
    this.bodyBytes += bytes.length;
    if (this.bodyBytes > this.limits.maxPartBytes) {
      throw new MultipartError(`A part is larger than ${this.limits.maxPartBytes} bytes.`);
    }
    this.body.push(bytes);
  }

  /** The part read, its body in the pieces it arrived in. */
  private takePart(): ReadPart {
    const contentType = this.headers['content-type'] || 'text/plain';
    const part = readPart(this.headers, contentType, this.body, this.bodyBytes);
    this.body = [];
    this.bodyBytes = 0;
    return part;
  }

  /** The body has ended: throws MultipartError unless its closing delimiter was read. */
  end(): void {
    if (this.state === 'headers') {
      throw new MultipartError('A part has no blank line between its headers and its body.');
    }
    if (this.state !== 'epilogue') {
      throw new MultipartError('The multipart body ends before its closing boundary.');
    }
  }

  /** One move of the state machine; false when it needs more bytes. */
  private step(parts: ReadPart[]): boolean {
    switch (this.state) {
      case 'preamble':
      case 'body':
        return this.findDelimiter(parts);
      case 'boundaryLine':
        return this.readBoundaryLine();
      case 'headers':
        return this.readHeaders();
      case 'epilogue':
        this.pending = Buffer.alloc(0);
        return false;
    }
  }

  private findDelimiter(parts: ReadPart[]): boolean {
    const at = this.pending.indexOf(this.delimiter);
    // Bytes that cannot be the start of a delimiter are body (or preamble) for certain.
    const certain = at >= 0 ? at : Math.max(0, this.pending.length - (this.delimiter.length - 1));
    if (this.state === 'body' && certain > 0) {
      this.addBody(this.pending.subarray(0, certain));
    }
    if (at < 0) {
      // Copied, so the chunk that held the body bytes is not kept alive by this tail.
      this.pending = Buffer.from(this.pending.subarray(certain));
      return false;
    }
    if (this.state === 'body') {
      parts.push(this.takePart());
    }
    this.pending = this.pending.subarray(at + this.delimiter.length);
    this.state = 'boundaryLine';
    return true;
  }

  /** What follows a delimiter: "--" (the close delimiter), or transport padding and a line end. */
  private readBoundaryLine(): boolean {
    if (this.pending.length < 2) {
      return false;
    }
    if (this.pending[0] === 0x2d && this.pending[1] === 0x2d) {
      if (this.parts === 0) {
        throw new MultipartError('The multipart body has no parts.');
      }
      this.state = 'epilogue';
      return true;
    }
    const lineEnd = this.pending.indexOf(CRLF);
    if (lineEnd < 0) {
      // Only padding so far (its last byte may be the CR of the line end): wait for the rest.
      const padding = this.pending.at(-1) === 0x0d ? this.pending.subarray(0, -1) : this.pending;
      if (isPadding(padding) && padding.length <= MAX_PADDING_BYTES) {
        return false;
      }
    }
    if (lineEnd < 0 || lineEnd > MAX_PADDING_BYTES || !isPadding(this.pending.subarray(0, lineEnd))) {
      throw new MultipartError('A boundary is followed by something other than the end of its line.');
    }
    this.parts += 1;
    if (this.parts > this.limits.maxParts) {
      throw new MultipartError(`The request has more than ${this.limits.maxParts} parts.`);
    }
    this.pending = this.pending.subarray(lineEnd + CRLF.length);
    this.state = 'headers';
    return true;
  }

  private readHeaders(): boolean {
    // A part without headers starts its body straight after the boundary line's end.
    const end = this.pending.subarray(0, 2).equals(CRLF) ? 0 : this.pending.indexOf(BLANK_LINE);
    const isTooLong = end > MAX_PART_HEADER_BYTES || this.pending.length > MAX_PART_HEADER_BYTES + 4;
    if (end < 0 && !isTooLong) {
      return false;
    }
    if (end < 0 || end > MAX_PART_HEADER_BYTES) {
      throw new MultipartError('A part has no blank line between its headers and its body.');
    }
    this.headers = parseHeaders(this.pending.toString('latin1', 0, end));
    this.pending = this.pending.subarray(end === 0 ? CRLF.length : end + BLANK_LINE.length);
    this.state = 'body';
    return true;
  }
}
