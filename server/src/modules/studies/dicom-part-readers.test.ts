import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { STUDY_MESSAGES } from '@ra/shared';
import { sampleCopy } from '../../../test/dicom-files.js';
import { readDicomSample } from '../../../test/dicom-samples.js';
import { hostileFile } from '../../../test/hostile-dicom.js';
import { hostileUids, multiFrameRle } from '../../../test/dicom-bombs.js';
import { READ_LIMIT_MESSAGES } from '../dicom/index.js';
import { dicomPartReaders, PartReaders } from './dicom-part-readers.js';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dicom-parts-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('DICOM part readers (worker threads)', () => {
  it('writes each part byte for byte and reads it as DICOM, or says why not', async () => {
    const dicom = await sampleCopy('CT_small.dcm');
    const expected = Buffer.from(dicom);
    const { parsed, read } = await dicomPartReaders.start('part 1', path.join(dir, '1.dcm'), dicom);
    const other = await dicomPartReaders.start(
      'part 2',
      path.join(dir, '2.dcm'),
      Buffer.from('not DICOM at all'),
    );

    const answer = await read;
    expect(answer && 'file' in answer && answer.file).toMatchObject({
      name: 'part 1',
      path: path.join(dir, '1.dcm'),
      size: expected.length,
      instance: { modality: 'CT', rows: 128, columns: 128 },
    });
    expect(fs.readFileSync(path.join(dir, '1.dcm')).equals(expected)).toBe(true);
    // Told as soon as the part is read: the same answer.
    expect(await parsed).toEqual(answer);
    expect(await other.read).toEqual({ skipped: { name: 'part 2', reason: STUDY_MESSAGES.notDicom } });
  });

  it('writes a media index (DICOMDIR), which reads as nothing to file, and answers it like any part', async () => {
    const index = readDicomSample('dicomdirtests/DICOMDIR');
    const expected = Buffer.from(index);
    const { parsed, read } = await dicomPartReaders.start('DICOMDIR', path.join(dir, 'DICOMDIR'), index);

    expect(await parsed).toBeUndefined();
    expect(await read).toBeUndefined();
    expect(fs.readFileSync(path.join(dir, 'DICOMDIR')).equals(expected)).toBe(true);
  });

  it('moves a large part without copying it, and never takes memory a small part shares', async () => {
    const large = Buffer.concat([await sampleCopy('CT_small.dcm'), Buffer.alloc(8192)]);
    const neighbour = Buffer.from('a neighbour in the pool');
    const small = Buffer.from('small part');
    expect(small.buffer).toBe(neighbour.buffer);
    const moved = await dicomPartReaders.start('large', path.join(dir, 'large.dcm'), large);
    const copied = await dicomPartReaders.start('small', path.join(dir, 'small.dcm'), small);
    await Promise.all([moved.read, copied.read]);
    expect(large.buffer.byteLength).toBe(0);
    expect(neighbour.toString()).toBe('a neighbour in the pool');
    expect(fs.readFileSync(path.join(dir, 'small.dcm')).toString()).toBe('small part');
  });

  it('writes a large part from the pieces it arrived in, and reads it from its file', async () => {
    // A private value that makes the file larger than a part joined in memory may be.
    const padded = hostileFile({
      elements: {
        '00090010': { vr: 'LO', value: 'PADDING' },
        '00091010': { vr: 'OB', value: Buffer.alloc(6 * 1024 ** 2, 7) },
      },
    }).bytes;
    const pieces = Array.from({ length: Math.ceil(padded.length / 65536) }, (_, index) =>
      padded.subarray(index * 65536, (index + 1) * 65536),
    );
    let joined = false;
    const body = {
      chunks: pieces,
      size: padded.length,
      get body(): Buffer {
        joined = true;
        return Buffer.concat(pieces);
      },
    };
    const { read } = await dicomPartReaders.start('large', path.join(dir, 'pieces.dcm'), body);
    const answer = await read;
    expect(answer && 'file' in answer && answer.file).toMatchObject({ name: 'large', size: padded.length });
    expect(fs.readFileSync(path.join(dir, 'pieces.dcm')).equals(padded)).toBe(true);
    expect(joined).toBe(false);
  });

  it('reads a written part of many compressed frames whole, recording where every frame lies', async () => {
    // Past the size from which a file on disk is otherwise read by its head alone (64 MB). The
    // offsets are those of every frame and of the end of the last.
    const rle = await multiFrameRle(hostileUids(), { rows: 512, columns: 512, frames: 260 });
    expect(rle.length).toBeGreaterThan(64 * 1024 ** 2);
    const pieces = Array.from({ length: Math.ceil(rle.length / 65536) }, (_, index) =>
      rle.subarray(index * 65536, (index + 1) * 65536),
    );
    const body = { chunks: pieces, size: rle.length, body: rle };
    const { read } = await dicomPartReaders.start('frames', path.join(dir, 'frames.dcm'), body);
    const answer = await read;
    expect(answer && 'file' in answer && answer.file.instance.frameOffsets).toHaveLength(261);
  });

  it('fails the part whose file cannot be written, with the reason, though it was read', async () => {
    const { parsed, read } = await dicomPartReaders.start(
      'lost',
      path.join(dir, 'missing', 'x.dcm'),
      Buffer.from('bytes'),
    );
    await expect(read).rejects.toMatchObject({ code: 'ENOENT' });
    expect(await parsed).toEqual({ skipped: { name: 'lost', reason: STUDY_MESSAGES.notDicom } });
  });

  it("refuses a part that outgrows a reader's heap, and loses none of the parts around it", async () => {
    const readers = new PartReaders(64);
    // Ten text values of 10 MB each: bytes the file carries, strings a reader's heap must hold.
    const text = Object.fromEntries(
      Array.from({ length: 10 }, (_, index) => [
        `0009${(0x1010 + index).toString(16)}`,
        { vr: 'UT', value: 'T'.repeat(10 * 1024 ** 2) },
      ]),
    );
    const heavy = hostileFile({ elements: { '00090010': { vr: 'LO', value: 'HEAVY' }, ...text } });
    const good = async (index: number) =>
      readers.start(`good ${index}`, path.join(dir, `good-${index}.dcm`), await sampleCopy('CT_small.dcm'));
    const before = await good(1);
    const bomb = await readers.start('heavy', path.join(dir, 'heavy.dcm'), heavy.bytes);
    const after = [await good(2), await good(3), await good(4)];

    expect(await bomb.read).toEqual({
      skipped: { name: 'heavy', reason: READ_LIMIT_MESSAGES.tooMuchMemory },
    });
    expect(await bomb.parsed).toEqual(await bomb.read);
    for (const [index, part] of [before, ...after].entries()) {
      const answer = await part.read;
      expect(answer && 'file' in answer && answer.file.instance.rows, `good ${index + 1}`).toBe(128);
    }
    // A new reader took the place of the one that was ended.
    const later = await good(5);
    expect(await later.read).toMatchObject({ file: { name: 'good 5' } });
  });
});
