import { describe, expect, it } from 'vitest';
import { BUNDLE_MAX_BYTES, bundleDicomFiles } from './dicom-bundle';
import type { BatchFile } from './upload-batch';

function dicom(path: string, text: string, purpose: BatchFile['purpose'] = 'dicom'): BatchFile {
  return {
    file: new File([text], path.split('/').pop()!, { lastModified: 1_700_000_000_000 }),
    path,
    purpose,
  };
}

/** jsdom's File has no text(). */
function textOf(file: File): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(reader.result as string);
    reader.onerror = () => reject(reader.error ?? new Error('read failed'));
    reader.readAsText(file);
  });
}

describe('bundleDicomFiles', () => {
  it('sends the DICOM files of a folder as one bundle in path order, and each ZIP as it is', async () => {
    const zip = dicom('cd.zip', 'PK', 'dicom-zip');
    const uploads = bundleDicomFiles([dicom('CD/S2/IM 1', 'second'), zip, dicom('CD/S1/IM1', 'first')]);
    expect(uploads).toHaveLength(2);
    const [bundle] = uploads;
    expect(bundle).toMatchObject({
      purpose: 'dicom-bundle',
      path: expect.stringMatching(/^2 DICOM files \(/),
    });
    expect(uploads[1]).toBe(zip);
    const text = await textOf(bundle!.file);
    const boundary = /^--(ra-dicom-bundle-[0-9a-f]{16})\r\n/.exec(text)![1]!;
    expect(text).toBe(
      `--${boundary}\r\nContent-Type: application/dicom\r\nContent-Location: CD%2FS1%2FIM1\r\n\r\nfirst\r\n` +
        `--${boundary}\r\nContent-Type: application/dicom\r\nContent-Location: CD%2FS2%2FIM%201\r\n\r\nsecond\r\n` +
        `--${boundary}--\r\n`,
    );
  });

  it('gives the same files the same bundle (to resume after a reload), and other files another', async () => {
    const first = bundleDicomFiles([dicom('A/1', 'one'), dicom('A/2', 'two')])[0]!;
    const again = bundleDicomFiles([dicom('A/2', 'two'), dicom('A/1', 'one')])[0]!;
    const other = bundleDicomFiles([dicom('A/1', 'one'), dicom('A/3', 'two')])[0]!;
    expect(again.path).toBe(first.path);
    expect(again.file.lastModified).toBe(first.file.lastModified);
    expect(await textOf(again.file)).toBe(await textOf(first.file));
    expect(other.path).not.toBe(first.path);
  });

  it('keeps out of the bundle the files uploaded before a reload, which are not sent again', () => {
    const earlier = dicom('A/1', 'one');
    const uploads = bundleDicomFiles(
      [earlier, dicom('A/2', 'two'), dicom('A/3', 'three')],
      (file) => file === earlier,
    );
    expect(uploads.map((upload) => [upload.purpose, upload.count])).toEqual([
      ['dicom-bundle', 2],
      ['dicom', undefined],
    ]);
    expect(uploads[1]).toBe(earlier);
  });

  it('starts a new bundle where the next file would take one over its size', () => {
    // Bytes, not text: jsdom encodes a string's every character, which took seconds for these sizes.
    const half = new Uint8Array(BUNDLE_MAX_BYTES / 2);
    const large = (path: string): BatchFile => ({ file: new File([half], path), path, purpose: 'dicom' });
    const uploads = bundleDicomFiles([large('A/1'), large('A/2'), large('A/3')]);
    expect(uploads.map((upload) => [upload.purpose, upload.count])).toEqual([
      ['dicom-bundle', 2],
      ['dicom-bundle', 1],
    ]);
  });

  it('leaves a single DICOM file as it is', () => {
    const only = dicom('IM1', 'only');
    expect(bundleDicomFiles([only])).toEqual([only]);
  });
});
