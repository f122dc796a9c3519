import { eq, sql } from 'drizzle-orm';
import type { Queryable } from '../../db/client.js';
import { dicomInstances } from '../../db/schema/studies.js';
import type { ImageAttributes } from '../dicom/index.js';
import {
  DEFAULT_MAX_TOTAL_FRAME_BYTES,
  FrameNotDecodable,
  FrameNotFound,
  FramesTooLarge,
} from '../dicom/index.js';
import type { Storage } from '../storage/index.js';
import { INLINE_FRAME_OFFSETS } from './dicomweb.repository.js';

/** The stored instance whose compressed frames are read, as an instance row carries it. */
export interface IndexedFrames {
  instanceId: string;
  storageKey: string;
  numberOfFrames: number;
  /** Carried only for instances of up to INLINE_FRAME_OFFSETS frames (dicomweb.repository.ts). */
  frameOffsets: number[] | null;
}

/**
 * Frame offsets of the many-frame instances read lately, by instance id. A stored instance's row
 * never changes, so they stay true; a viewer paging through a 400-frame instance reads them once.
 */
const MAX_CACHED_INSTANCES = 32;
const cachedOffsets = new Map<string, number[] | null>();

async function frameOffsetsOf(db: Queryable, instance: IndexedFrames): Promise<number[] | null> {
  if (instance.frameOffsets || instance.numberOfFrames <= INLINE_FRAME_OFFSETS) {
    return instance.frameOffsets;
  }
  if (cachedOffsets.has(instance.instanceId)) {
    return cachedOffsets.get(instance.instanceId)!;
  }
  const [row] = await db
    .select({ offsets: dicomInstances.frameOffsets })
    .from(dicomInstances)
    .where(eq(dicomInstances.id, instance.instanceId));
  const offsets = row?.offsets ?? null;
  if (cachedOffsets.size >= MAX_CACHED_INSTANCES) {
    cachedOffsets.delete(cachedOffsets.keys().next().value!);
  }
  cachedOffsets.set(instance.instanceId, offsets);
  return offsets;
}

const ITEM = 0xfffee000;

/** A frame's codestream: the values of the fragment items its byte range holds, joined. */
function codestreamOf(items: Buffer, frame: number): Uint8Array {
  const parts: Buffer[] = [];
  let at = 0;
  while (at < items.length) {
    const isItem =
      at + 8 <= items.length && ((items.readUInt16LE(at) << 16) | items.readUInt16LE(at + 2)) >>> 0 === ITEM;
    const length = isItem ? items.readUInt32LE(at + 4) : 0;
    if (!isItem || at + 8 + length > items.length) {
      throw new FrameNotDecodable(`Frame ${frame} is not where the stored offsets say.`);
    }
    parts.push(items.subarray(at + 8, at + 8 + length));
    at += 8 + length;
  }
  return parts.length === 1 ? parts[0]! : Buffer.concat(parts);
}

/**
 * The codestreams of compressed frames, each read from storage by its byte range (the offsets ingest
 * recorded), never the whole file: a frame of a 400-frame instance costs one frame's bytes. Undefined
 * when ingest recorded no offsets (the caller reads the file on a decode thread).
 */
export async function readEncapsulatedFrames(
  db: Queryable,
  storage: Storage,
  instance: IndexedFrames,
  frameNumbers: number[],
): Promise<Uint8Array[] | undefined> {
  const offsets = await frameOffsetsOf(db, instance);
  if (!offsets || offsets.length !== instance.numberOfFrames + 1) {
    return undefined;
  }
  if (frameNumbers.some((frame) => frame > instance.numberOfFrames)) {
    throw new FrameNotFound(`The image has frames 1 to ${instance.numberOfFrames} only.`);
  }
  const wanted = [...new Set(frameNumbers)];
  const total = wanted.reduce((sum, frame) => sum + offsets[frame]! - offsets[frame - 1]!, 0);
  if (total > DEFAULT_MAX_TOTAL_FRAME_BYTES) {
    throw new FramesTooLarge('The frames asked for are too large to send at once; ask for fewer.');
  }
  const byNumber = new Map<number, Uint8Array>();
  for (const frame of wanted) {
    const start = offsets[frame - 1]!;
    const end = offsets[frame]!;
    const items = await storage.readBytes(instance.storageKey, { start, end: end - 1 });
    if (items.length < end - start) {
      throw new FrameNotFound(`Frame ${frame} is missing from the stored file.`);
    }
    byNumber.set(frame, codestreamOf(items, frame));
  }
  return frameNumbers.map((frame) => byNumber.get(frame)!);
}

/**
 * The attributes a decoder needs, from the instance's stored metadata: the one thing the decoding
 * of an indexed frame needs besides its codestream. Only these values are read from the row.
 */
export async function imageAttributesOf(db: Queryable, instanceId: string): Promise<ImageAttributes> {
  const first = (tag: string) => sql`(${dicomInstances.metadata} -> ${tag} -> 'Value' ->> 0)`;
  const result = await db.execute(sql`
    select ${first('00280010')} as rows, ${first('00280011')} as columns,
      ${first('00280002')} as samples, ${first('00280100')} as allocated,
      ${first('00280101')} as stored, ${first('00280103')} as representation,
      ${first('00280004')} as photometric, ${first('00280006')} as planar
    from ${dicomInstances} where ${dicomInstances.id} = ${instanceId}`);
  const row = (result as { rows: Record<string, string | null>[] }).rows[0] ?? {};
  const number = (key: string) =>
    row[key] === null || row[key] === undefined ? undefined : Number(row[key]);
  const bitsAllocated = number('allocated') ?? 0;
  return {
    rows: number('rows') ?? 0,
    columns: number('columns') ?? 0,
    samplesPerPixel: Math.max(1, number('samples') ?? 1),
    bitsAllocated,
    bitsStored: number('stored') ?? bitsAllocated,
    pixelRepresentation: number('representation') ?? 0,
    photometricInterpretation: row.photometric ?? '',
    planarConfiguration: number('planar') ?? 0,
  };
}
