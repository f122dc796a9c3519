import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { STUDY_MESSAGES } from '@ra/shared';
import { sampleCopy } from '../../../test/dicom-files.js';
import { dicomPartReaders } from './dicom-part-readers.js';

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

  it('fails the part whose file cannot be written, with the reason, though it was read', async () => {
    const { parsed, read } = await dicomPartReaders.start(
      'lost',
      path.join(dir, 'missing', 'x.dcm'),
      Buffer.from('bytes'),
    );
    await expect(read).rejects.toMatchObject({ code: 'ENOENT' });
    expect(await parsed).toEqual({ skipped: { name: 'lost', reason: STUDY_MESSAGES.notDicom } });
  });
});
