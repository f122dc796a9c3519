import { describe, expect, it } from 'vitest';
import { checkFrameAnswer, jpeg2000Size, partTransferSyntax, UnreadableFrame } from './codestream-check';

const J2K = '1.2.840.10008.1.2.4.90';

/** A frame answer as the archive sends it: one part holding `body`. */
function answer(body: number[], syntax = J2K): Uint8Array {
  const head = `--b\r\nContent-Type: application/octet-stream; transfer-syntax=${syntax}\r\n\r\n`;
  const tail = '\r\n--b--';
  return new Uint8Array([...new TextEncoder().encode(head), ...body, ...new TextEncoder().encode(tail)]);
}

function u32(value: number): number[] {
  return [value >>> 24, (value >>> 16) & 0xff, (value >>> 8) & 0xff, value & 0xff];
}

/** The start of a JPEG 2000 codestream of columns × rows, its image offset at (2, 1). */
function codestream(columns: number, rows: number): number[] {
  return [
    0xff,
    0x4f,
    0xff,
    0x51,
    0,
    41,
    0,
    0,
    ...u32(columns + 2),
    ...u32(rows + 1),
    ...u32(2),
    ...u32(1),
    0xff,
    0x90,
  ];
}

describe('jpeg2000Size', () => {
  it('reads the image size from the SIZ segment, less the image offset', () => {
    expect(jpeg2000Size(answer(codestream(256, 1024)))).toEqual({ columns: 256, rows: 1024 });
  });

  it('finds no size when the start of codestream is not followed by SIZ', () => {
    const damaged = codestream(256, 1024).fill(0, 2, 12);
    expect(jpeg2000Size(answer(damaged))).toBeUndefined();
    expect(jpeg2000Size(answer([0xff, 0x4f, 0xff]))).toBeUndefined();
  });
});

describe('checkFrameAnswer', () => {
  it('reads the transfer syntax of the part', () => {
    expect(partTransferSyntax(answer([1, 2, 3]))).toBe(J2K);
  });

  it('lets a JPEG 2000 frame of the image’s size through', () => {
    expect(() => checkFrameAnswer(answer(codestream(256, 1024)), { rows: 1024, columns: 256 })).not.toThrow();
  });

  it('refuses a JPEG 2000 frame without a readable SIZ, or of another size', () => {
    const damaged = codestream(256, 1024).fill(0, 2, 12);
    expect(() => checkFrameAnswer(answer(damaged), { rows: 1024, columns: 256 })).toThrow(UnreadableFrame);
    expect(() => checkFrameAnswer(answer(codestream(256, 512)), { rows: 1024, columns: 256 })).toThrow(
      UnreadableFrame,
    );
  });

  it('leaves other transfer syntaxes to their decoders', () => {
    expect(() =>
      checkFrameAnswer(answer([0, 0, 0], '1.2.840.10008.1.2.4.80'), { rows: 1, columns: 1 }),
    ).not.toThrow();
    expect(() => checkFrameAnswer(answer([0, 0, 0]), undefined)).not.toThrow();
  });
});
