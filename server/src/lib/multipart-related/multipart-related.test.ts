import crypto, { randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import {
  MAX_PART_HEADER_BYTES,
  MultipartError,
  multipartRelatedContentType,
  newBoundary,
  parseMultipartRelated,
  readMultipartRelated,
  writeMultipartRelated,
  type MultipartLimits,
  type ReadPart,
  type WritePart,
} from './multipart-related.js';

const LIMITS: MultipartLimits = { maxParts: 100, maxPartBytes: 1024 * 1024, maxTotalBytes: 8 * 1024 * 1024 };

async function* fromArray<T>(items: T[]): AsyncGenerator<T> {
  for (const item of items) {
    yield item;
  }
}

async function drain(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) {
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

/** The bytes as a stream of chunks of `size` bytes (the last shorter). */
function chunked(bytes: Buffer, size: number): Readable {
  const chunks: Buffer[] = [];
  for (let at = 0; at < bytes.length; at += size) {
    chunks.push(bytes.subarray(at, at + size));
  }
  return Readable.from(chunks, { objectMode: false });
}

async function readAll(
  body: Readable | Buffer | string,
  contentType: string,
  limits: MultipartLimits = LIMITS,
): Promise<ReadPart[]> {
  const stream =
    typeof body === 'string' || Buffer.isBuffer(body) ? chunked(Buffer.from(body), 1 << 16) : body;
  const parts: ReadPart[] = [];
  for await (const part of readMultipartRelated(stream, contentType, limits)) {
    parts.push(part);
  }
  return parts;
}

async function refusal(body: Readable | Buffer | string, contentType: string, limits?: MultipartLimits) {
  try {
    await readAll(body, contentType, limits);
    return 'read';
  } catch (error) {
    expect(error).toBeInstanceOf(MultipartError);
    return (error as Error).message;
  }
}

describe('writing then reading', () => {
  const boundary = newBoundary();
  const contentType = multipartRelatedContentType(boundary);
  const bodies = [
    randomBytes(70_000),
    // Line ends and every beginning of the delimiter, none of them whole.
    Buffer.from(
      `x--${boundary}\r\n\r\n--${boundary.slice(0, -1)}\r\n-${boundary}\r\n--${boundary.slice(1)}\r`,
    ),
    Buffer.alloc(0),
    Buffer.from(`\r\n--${boundary.slice(0, 5)}\r`),
  ];
  const parts = (): WritePart[] => [
    { contentType: 'application/dicom', body: bodies[0]! },
    { contentType: 'application/dicom', headers: { 'Content-Location': '/studies/1' }, body: bodies[1]! },
    { contentType: 'application/octet-stream', body: bodies[2]! },
    // A stream, in uneven chunks.
    { contentType: 'application/dicom', body: chunked(bodies[3]!, 3) },
  ];

  it('gives back every part, its headers and its bytes, whatever the chunk sizes', async () => {
    const written = await drain(writeMultipartRelated(fromArray(parts()), boundary));
    // Around a delimiter's length too ("\r\n--" and the boundary), where a chunk is read without
    // copying it behind the bytes the last one left unread.
    const delimiter = boundary.length + 4;
    const aroundDelimiter = [delimiter - 1, delimiter, delimiter + 1, 2 * delimiter - 1];
    for (const size of [1, 2, 3, 7, 64, ...aroundDelimiter, 4096, written.length]) {
      const read = await readAll(chunked(written, size), contentType);
      expect(
        read.map((part) => part.contentType),
        `chunks of ${size}`,
      ).toEqual(['application/dicom', 'application/dicom', 'application/octet-stream', 'application/dicom']);
      expect(read.map((part) => part.body.equals(bodies[read.indexOf(part)]!))).toEqual([
        true,
        true,
        true,
        true,
      ]);
      expect(read[1]!.headers).toEqual({
        'content-type': 'application/dicom',
        'content-location': '/studies/1',
      });
    }
  });

  it('writes the delimiters, headers and close delimiter of RFC 2046', async () => {
    const written = await drain(
      writeMultipartRelated(
        fromArray([
          { contentType: 'application/dicom', body: Buffer.from('one') },
          { contentType: 'application/dicom', headers: { 'Content-ID': '<2>' }, body: Buffer.from('two') },
        ]),
        'b',
      ),
    );
    expect(written.toString()).toBe(
      '--b\r\nContent-Type: application/dicom\r\n\r\none' +
        '\r\n--b\r\nContent-Type: application/dicom\r\nContent-ID: <2>\r\n\r\ntwo' +
        '\r\n--b--\r\n',
    );
  });

  it('reads a part body stream only as the output is read', async () => {
    let chunksRead = 0;
    const instance = new Readable({
      read() {
        chunksRead += 1;
        this.push(chunksRead <= 1000 ? Buffer.alloc(64 * 1024) : null);
      },
    });
    const output = writeMultipartRelated(
      fromArray([{ contentType: 'application/dicom', body: instance }]),
      newBoundary(),
    );
    const iterator = output[Symbol.asyncIterator]();
    for (let read = 0; read < 5; read += 1) {
      await iterator.next();
    }
    // 64 MB of instance, of which only a few chunks (and the streams' read-ahead) were taken.
    expect(chunksRead).toBeGreaterThan(1);
    expect(chunksRead).toBeLessThan(50);
    await iterator.return?.();
  });

  it('makes random boundaries and the Content-Type of a DICOM response', () => {
    const boundary = newBoundary();
    expect(boundary).toMatch(/^[0-9a-f]{36}$/);
    expect(newBoundary()).not.toBe(boundary);
    expect(multipartRelatedContentType(boundary)).toBe(
      `multipart/related; type="application/dicom"; boundary=${boundary}`,
    );
    expect(multipartRelatedContentType('a b', 'application/octet-stream')).toBe(
      'multipart/related; type="application/octet-stream"; boundary="a b"',
    );
    expect(() => multipartRelatedContentType('x'.repeat(71))).toThrow(RangeError);
  });

  it('refuses headers that would break out of their line, and a body with no part', async () => {
    const injected = { contentType: 'application/dicom\r\nX-Evil: 1', body: Buffer.alloc(1) };
    await expect(drain(writeMultipartRelated(fromArray([injected]), 'b'))).rejects.toThrow(TypeError);
    const badName = { contentType: 'application/dicom', headers: { 'Bad Name': 'x' }, body: Buffer.alloc(1) };
    await expect(drain(writeMultipartRelated(fromArray([badName]), 'b'))).rejects.toThrow(TypeError);
    await expect(drain(writeMultipartRelated(fromArray([]), 'b'))).rejects.toThrow(RangeError);
    expect(() => writeMultipartRelated(fromArray([]), 'ends with a space ')).toThrow(RangeError);
  });
});

describe('reading what clients send', () => {
  it('takes the boundary quoted or not, parameters in any case and order', () => {
    const cases: Array<[string, string]> = [
      ['multipart/related; type="application/dicom"; boundary=abc', 'abc'],
      ['Multipart/Related;BOUNDARY="a b:c?"; type=application/dicom', 'a b:c?'],
      ['multipart/related; boundary = "a\\:b"', 'a:b'],
      ['multipart/related; type="application/dicom"; boundary=x;', 'x'],
    ];
    for (const [header, boundary] of cases) {
      expect(parseMultipartRelated(header).boundary, header).toBe(boundary);
    }
    expect(parseMultipartRelated(cases[0]![0]).type).toBe('application/dicom');
  });

  it("reads a boundary longer than RFC 2046's 70 characters, as Orthanc sends them", async () => {
    // Orthanc's DICOMweb plugin (1.7) joins two UUIDs in its STOW-RS requests: 73 characters.
    const boundary = `${crypto.randomUUID()}-${crypto.randomUUID()}`;
    const header = `multipart/related; type="application/dicom"; boundary=${boundary}`;
    const body = `--${boundary}\r\nContent-Type: application/dicom\r\n\r\nx\r\n--${boundary}--\r\n`;
    expect(parseMultipartRelated(header).boundary).toBe(boundary);
    expect((await readAll(body, header)).map((part) => part.body.toString())).toEqual(['x']);
    // Still written within the RFC's 70.
    expect(() => multipartRelatedContentType(boundary)).toThrow(RangeError);
  });

  it('refuses a Content-Type without a valid boundary, or not multipart/related', async () => {
    const headers = [
      undefined,
      '',
      'application/dicom',
      'multipart/mixed; boundary=abc',
      'multipart/related; type="application/dicom"',
      'multipart/related; boundary=',
      'multipart/related; boundary=""',
      `multipart/related; boundary=${'x'.repeat(257)}`,
      'multipart/related; boundary="ends with a space "',
      'multipart/related; boundary="unterminated',
      'multipart/related; boundary=a; boundary=b',
      'multipart/related; boundary=a{b}',
    ];
    for (const header of headers) {
      expect(() => parseMultipartRelated(header), header).toThrow(MultipartError);
      expect(await refusal('--a\r\n\r\nx\r\n--a--', header as string), header).not.toBe('read');
    }
  });

  it('skips the preamble, the epilogue and the transport padding after a boundary', async () => {
    const body =
      'This is a preamble.\r\n--b \t\r\nContent-Type: application/dicom\r\n\r\nfirst' +
      '\r\n--b\t\r\n\r\nno headers\r\n--b--  \r\nThis is an epilogue, --b\r\n';
    const parts = await readAll(body, 'multipart/related; boundary=b');
    expect(parts.map((part) => [part.contentType, part.body.toString()])).toEqual([
      ['application/dicom', 'first'],
      ['text/plain', 'no headers'],
    ]);
  });

  it('reads header names in any case, a folded header as one', async () => {
    const body =
      '--b\r\nCONTENT-type: application/dicom\r\ncontent-ID: <1>\r\nX-Note: one\r\n two\r\n\r\nx\r\n--b--';
    const [part] = await readAll(body, 'multipart/related; boundary=b');
    expect(part).toMatchObject({
      contentType: 'application/dicom',
      headers: { 'content-type': 'application/dicom', 'content-id': '<1>', 'x-note': 'one two' },
    });
  });

  it('refuses malformed bodies', async () => {
    const header = 'multipart/related; boundary=b';
    const bodies = [
      // No closing delimiter.
      '--b\r\nContent-Type: application/dicom\r\n\r\nbody',
      '--b\r\nContent-Type: application/dicom\r\n\r\nbody\r\n--b\r\n',
      // No blank line between the headers and the body.
      '--b\r\nContent-Type: application/dicom\r\nbody\r\n--b--',
      '--b\r\nContent-Type: application/dicom',
      // No delimiter at all, or only the close one.
      'just text',
      '--b--\r\n',
      // Text after the boundary on its line, a header line without a colon, a header given twice.
      '--bx\r\n\r\nbody\r\n--b--',
      '--b\r\nnot a header\r\n\r\nbody\r\n--b--',
      '--b\r\nContent-Type: a/b\r\ncontent-type: c/d\r\n\r\nbody\r\n--b--',
    ];
    for (const body of bodies) {
      expect(await refusal(body, header), JSON.stringify(body)).not.toBe('read');
      expect(await refusal(chunked(Buffer.from(body), 1), header), JSON.stringify(body)).not.toBe('read');
    }
    const endless = `--b\r\nX: ${'y'.repeat(MAX_PART_HEADER_BYTES)}`;
    expect(await refusal(endless, header)).toBe('A part has no blank line between its headers and its body.');
  });

  it('enforces the limits on parts, part size and total size', async () => {
    const boundary = newBoundary();
    const header = multipartRelatedContentType(boundary);
    const body = (...sizes: number[]) =>
      drain(
        writeMultipartRelated(
          fromArray(sizes.map((size) => ({ contentType: 'application/dicom', body: Buffer.alloc(size, 1) }))),
          boundary,
        ),
      );
    const three = await body(10, 100, 10);
    expect(await readAll(three, header, { ...LIMITS, maxParts: 3 })).toHaveLength(3);
    expect(await refusal(three, header, { ...LIMITS, maxParts: 2 })).toBe(
      'The request has more than 2 parts.',
    );
    expect(await readAll(three, header, { ...LIMITS, maxPartBytes: 100 })).toHaveLength(3);
    for (const size of [1, 1 << 16]) {
      expect(await refusal(chunked(three, size), header, { ...LIMITS, maxPartBytes: 99 })).toBe(
        'A part is larger than 99 bytes.',
      );
    }
    expect(await readAll(three, header, { ...LIMITS, maxTotalBytes: three.length })).toHaveLength(3);
    expect(await refusal(three, header, { ...LIMITS, maxTotalBytes: three.length - 1 })).toBe(
      `The request is larger than ${three.length - 1} bytes.`,
    );
  });

  it('leaves the request stream to the HTTP server when it refuses it', async () => {
    const request = chunked(Buffer.from('--b\r\nbroken\r\n\r\nbody\r\n--b--'), 4);
    expect(await refusal(request, 'multipart/related; boundary=b')).not.toBe('read');
    expect(request.destroyed).toBe(false);
  });
});
