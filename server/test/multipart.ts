import { Readable } from 'node:stream';
import { readMultipartRelated } from '../src/lib/multipart-related/multipart-related.js';

/** The parts of a multipart/related answer (WADO-RS), read with the server's own reader. */
export async function partsOf(response: { headers: Record<string, unknown>; rawPayload: Buffer }) {
  const parts = [];
  for await (const part of readMultipartRelated(
    Readable.from([response.rawPayload]),
    String(response.headers['content-type']),
    { maxParts: 100, maxPartBytes: 64 * 1024 ** 2, maxTotalBytes: 256 * 1024 ** 2 },
  )) {
    parts.push(part);
  }
  return parts;
}
