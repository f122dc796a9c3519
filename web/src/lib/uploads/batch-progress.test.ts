import { describe, expect, it } from 'vitest';
import { batchProgress, megabytes } from './batch-progress';

const MB = 1024 * 1024;

describe('batchProgress', () => {
  it('counts finished files whole and adds what was sent of the others', () => {
    expect(
      batchProgress({
        bytesTotal: 100 * MB,
        filesTotal: 10,
        bytesOfFinishedFiles: 30 * MB,
        filesDone: 3,
        bytesSentOfOthers: 12.5 * MB,
      }),
    ).toEqual({ bytesSent: 42.5 * MB, bytesTotal: 100 * MB, percent: 42, filesDone: 3, filesTotal: 10 });
  });

  it('floors the percentage, and stays at 99 until the server has confirmed the last file', () => {
    const counts = { bytesTotal: 1000, filesTotal: 3, bytesOfFinishedFiles: 600, filesDone: 2 };
    expect(batchProgress({ ...counts, bytesSentOfOthers: 399 }).percent).toBe(99);
    expect(batchProgress({ ...counts, bytesSentOfOthers: 400 })).toMatchObject({
      bytesSent: 1000,
      percent: 99,
    });
    expect(batchProgress({ ...counts, bytesSentOfOthers: 5 }).percent).toBe(60);
    expect(
      batchProgress({ ...counts, filesDone: 3, bytesOfFinishedFiles: 1000, bytesSentOfOthers: 0 }),
    ).toMatchObject({ bytesSent: 1000, percent: 100, filesDone: 3 });
  });

  it('never counts more than the total, even when a resumed file reports its earlier bytes again', () => {
    expect(
      batchProgress({
        bytesTotal: 1000,
        filesTotal: 2,
        bytesOfFinishedFiles: 500,
        filesDone: 1,
        bytesSentOfOthers: 900,
      }),
    ).toMatchObject({ bytesSent: 1000, percent: 99 });
  });

  it('starts at 0% and handles a batch of empty files', () => {
    const start = { bytesTotal: 0, filesTotal: 2, bytesOfFinishedFiles: 0, bytesSentOfOthers: 0 };
    expect(batchProgress({ ...start, filesDone: 0 }).percent).toBe(0);
    expect(batchProgress({ ...start, filesDone: 2 }).percent).toBe(100);
  });
});

describe('megabytes', () => {
  it('shows one decimal', () => {
    expect(megabytes(48.2 * MB)).toBe('48.2 MB');
    expect(megabytes(0)).toBe('0.0 MB');
  });
});
