import { deflateRawSync } from 'node:zlib';
import { STUDY_MESSAGES } from '@ra/shared';
import { describe, expect, it } from 'vitest';
import { readDicomSample } from '../../../test/dicom-samples.js';
import { readDicomInstance } from './dicom-instance.js';
import { READ_LIMIT_MESSAGES } from './dicom-read-error.js';
import { checkDicomLayout, TRANSFER_SYNTAX } from './dicom-structure.js';

/*
 * Small Part 10 files built byte by byte, each with one defect dcmjs would not notice. Every test
 * first shows the same file without the defect is read, so a refusal is about the defect.
 */

const UNDEFINED = 0xffffffff;
const LONG_VRS = new Set(['OB', 'OW', 'OF', 'OD', 'SQ', 'UC', 'UN', 'UR', 'UT']);

function element(tag: number, vr: string, value: Buffer, length = value.length): Buffer {
  const isLong = LONG_VRS.has(vr);
  const header = Buffer.alloc(isLong ? 12 : 8);
  header.writeUInt16LE(tag >>> 16, 0);
  header.writeUInt16LE(tag & 0xffff, 2);
  header.write(vr, 4, 'latin1');
  if (isLong) {
    header.writeUInt32LE(length, 8);
  } else {
    header.writeUInt16LE(length, 6);
  }
  return Buffer.concat([header, value]);
}

function marker(tag: number, length: number): Buffer {
  const bytes = Buffer.alloc(8);
  bytes.writeUInt16LE(tag >>> 16, 0);
  bytes.writeUInt16LE(tag & 0xffff, 2);
  bytes.writeUInt32LE(length, 4);
  return bytes;
}

const item = (content: Buffer, length = content.length) =>
  Buffer.concat([marker(0xfffee000, length), content]);
const itemEnd = marker(0xfffee00d, 0);
const sequenceEnd = marker(0xfffee0dd, 0);
const uid = (text: string) => Buffer.from(text.length % 2 ? `${text}\0` : text, 'latin1');
const sequence = (tag: number, ...items: Buffer[]) =>
  element(tag, 'SQ', Buffer.concat([...items, sequenceEnd]), UNDEFINED);

const identifiers = Buffer.concat([
  element(0x00080016, 'UI', uid('1.2.840.10008.5.1.4.1.1.7')),
  element(0x00080018, 'UI', uid('1.2.3.4')),
  element(0x0020000d, 'UI', uid('1.2.3')),
  element(0x0020000e, 'UI', uid('1.2.3.1')),
]);

function part10(dataset: Buffer, transferSyntax: string = TRANSFER_SYNTAX.explicitLittleEndian): Buffer {
  const meta = element(0x00020010, 'UI', uid(transferSyntax));
  const groupLength = Buffer.alloc(4);
  groupLength.writeUInt32LE(meta.length);
  return Buffer.concat([
    Buffer.alloc(128),
    Buffer.from('DICM'),
    element(0x00020000, 'UL', groupLength),
    meta,
    dataset,
  ]);
}

function reason(file: Buffer): string {
  try {
    readDicomInstance(file);
    return 'read';
  } catch (error) {
    return (error as { reason?: string }).reason ?? String(error);
  }
}

/** How much ArrayBuffer memory reading the file took, in MiB; dcmjs alone would take gigabytes. */
function arrayBufferGrowth(file: Buffer): number {
  const before = process.memoryUsage().arrayBuffers;
  reason(file);
  return (process.memoryUsage().arrayBuffers - before) / 2 ** 20;
}

describe('checking the structure before dcmjs reads it', () => {
  it('reads the well-formed file the other tests break', () => {
    expect(reason(part10(identifiers))).toBe('read');
    expect(reason(part10(Buffer.concat([identifiers, element(0x00091010, 'OB', Buffer.alloc(6))])))).toBe(
      'read',
    );
  });

  it('refuses a value that claims more bytes than the file holds, without allocating them', () => {
    const file = part10(Buffer.concat([identifiers, element(0x00091010, 'OB', Buffer.alloc(6), 0xfffffff0)]));
    expect(reason(file)).toBe(STUDY_MESSAGES.unreadable);
    expect(arrayBufferGrowth(file)).toBeLessThan(64);
  });

  it('refuses a real image whose Pixel Data claims 4 GiB', () => {
    const file = Buffer.from(readDicomSample('MR_small.dcm'));
    const at = file.indexOf(Buffer.from([0xe0, 0x7f, 0x10, 0x00, 0x4f, 0x57]));
    file.writeUInt32LE(0xfffffff0, at + 8);
    expect(reason(file)).toBe(STUDY_MESSAGES.unreadable);
    expect(arrayBufferGrowth(file)).toBeLessThan(64);
  });

  it('refuses a meta group without length whose next element, read as dcmjs reads it, overruns the file', () => {
    // no_meta_group_length.dcm: dcmjs reads the first implicit-VR element as explicit VR.
    const file = readDicomSample('no_meta_group_length.dcm');
    expect(reason(file)).toBe(STUDY_MESSAGES.unreadable);
    expect(arrayBufferGrowth(file)).toBeLessThan(64);
  });

  it('refuses an item longer than its sequence', () => {
    const content = element(0x00080100, 'SH', Buffer.from('CODE'));
    const valid = element(0x00081140, 'SQ', item(content));
    const overlong = element(0x00081140, 'SQ', item(content, content.length + 8));
    expect(reason(part10(Buffer.concat([identifiers, valid])))).toBe('read');
    expect(
      reason(part10(Buffer.concat([identifiers, overlong, element(0x00091010, 'OB', Buffer.alloc(0))]))),
    ).toBe(STUDY_MESSAGES.unreadable);
  });

  it('refuses an undefined-length item that dcmjs would cut at delimiter bytes inside a value', () => {
    const delimiterBytes = Buffer.concat([Buffer.from([1, 2]), itemEnd, Buffer.from([3, 4])]);
    const harmless = Buffer.from([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]);
    const withValue = (value: Buffer) =>
      part10(
        Buffer.concat([
          identifiers,
          sequence(0x00081140, item(Buffer.concat([element(0x00091010, 'OB', value), itemEnd]), UNDEFINED)),
        ]),
      );
    expect(reason(withValue(harmless))).toBe('read');
    expect(reason(withValue(delimiterBytes))).toBe(STUDY_MESSAGES.unreadable);
  });

  it('refuses nesting deeper than any real dataset', () => {
    const nested = (depth: number): Buffer =>
      depth === 0
        ? element(0x00080100, 'SH', Buffer.from('CODE'))
        : sequence(0x00081140, item(Buffer.concat([nested(depth - 1), itemEnd]), UNDEFINED));
    expect(reason(part10(Buffer.concat([identifiers, nested(20)])))).toBe('read');
    expect(reason(part10(Buffer.concat([identifiers, nested(40)])))).toBe(STUDY_MESSAGES.unreadable);
  });

  it('refuses an offset table that points inside a fragment', () => {
    const table = (...offsets: number[]) => {
      const bytes = Buffer.alloc(offsets.length * 4);
      offsets.forEach((offset, i) => bytes.writeUInt32LE(offset, i * 4));
      return bytes;
    };
    const fragment = Buffer.alloc(16, 0xab);
    const pixelData = (offsets: Buffer) =>
      element(
        0x7fe00010,
        'OB',
        Buffer.concat([item(offsets), item(fragment), item(fragment), sequenceEnd]),
        UNDEFINED,
      );
    const jpeg = '1.2.840.10008.1.2.4.50';
    expect(reason(part10(Buffer.concat([identifiers, pixelData(table(0, 24))]), jpeg))).toBe('read');
    expect(reason(part10(Buffer.concat([identifiers, pixelData(table(0, 12))]), jpeg))).toBe(
      STUDY_MESSAGES.unreadable,
    );
  });

  it('refuses a deflated dataset that inflates beyond the limit', () => {
    const dataset = Buffer.concat([identifiers, element(0x00091010, 'OB', Buffer.alloc(100_000))]);
    const file = part10(deflateRawSync(dataset), TRANSFER_SYNTAX.deflatedLittleEndian);
    expect(file.length).toBeLessThan(1000);
    expect(checkDicomLayout(file).dataset).toHaveLength(dataset.length);
    // Four times the largest instance: 4 × 12,500 = 50,000 bytes.
    expect(() => checkDicomLayout(file, { maxInstanceBytes: 12_500 })).toThrow(
      READ_LIMIT_MESSAGES.inflatesTooLarge,
    );
  });

  it('inflates only the attributes of a deflated dataset when the pixels are not wanted', () => {
    // 100 MB of pixels behind the attributes, deflated to about 100 KB.
    const pixels = element(0x7fe00010, 'OW', Buffer.alloc(100 * 1024 ** 2));
    const file = part10(
      deflateRawSync(Buffer.concat([identifiers, pixels]), { level: 9 }),
      TRANSFER_SYNTAX.deflatedLittleEndian,
    );
    const limits = { maxInstanceBytes: 1024 ** 2 };
    // Inflated whole it is past the bound; for its attributes it is read at once.
    expect(() => checkDicomLayout(file, limits)).toThrow(READ_LIMIT_MESSAGES.inflatesTooLarge);
    const head = checkDicomLayout(file, { ...limits, isHeadOnly: true });
    expect(head.dataset.length).toBeLessThan(2 * 1024 ** 2);
    expect(head.pixelData.get(0x7fe00010)).toMatchObject({ elementAt: identifiers.length });
    expect(readDicomInstance(file).sopInstanceUid).not.toBe('');
  });

  it('finds native and encapsulated pixel data', () => {
    const native = checkDicomLayout(readDicomSample('MR_small.dcm')).pixelData.get(0x7fe00010);
    expect(native).toMatchObject({ kind: 'native', vr: 'OW', length: 8192 });
    const encapsulated = checkDicomLayout(readDicomSample('SC_rgb_rle_2frame.dcm')).pixelData.get(0x7fe00010);
    // dcmdump: an offset table of two entries and two fragments.
    expect(encapsulated).toMatchObject({ kind: 'encapsulated', offsetTable: [0, 0x2a0] });
    expect(encapsulated?.kind === 'encapsulated' && encapsulated.fragments).toHaveLength(2);
  });
});
