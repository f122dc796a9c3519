import { describe, expect, it } from 'vitest';
import { STUDY_MESSAGES } from '@ra/shared';
import { dicomFile, fileStartingWith, SIGNATURES } from '../../../test/files';
import { describeDicom, describeSkipped, SELECTION_MESSAGES, sortChosenFiles } from './upload-selection';

const MB = 1024 * 1024;

function chosen(...files: File[]) {
  return files.map((file) => ({ file, path: `CD/${file.name}` }));
}

describe('sortChosenFiles', () => {
  it('keeps one image for the image flow', async () => {
    const png = fileStartingWith('chest.png', SIGNATURES.png, 2048, 'image/png');
    expect(await sortChosenFiles([{ file: png, path: 'chest.png' }])).toEqual({
      kind: 'image',
      file: png,
      skipped: [],
    });
  });

  it('sends DICOM files and ZIPs as a batch, and skips DICOMDIR and what is not DICOM', async () => {
    const files = chosen(
      dicomFile('IM1'),
      fileStartingWith('DICOMDIR', SIGNATURES.autorun),
      dicomFile('DICOMDIR'),
      fileStartingWith('autorun.inf', SIGNATURES.autorun),
      fileStartingWith('study.zip', SIGNATURES.zip),
      dicomFile('IM2.dcm'),
    );
    const selection = await sortChosenFiles(files);
    expect(selection.kind).toBe('dicom');
    if (selection.kind !== 'dicom') {
      return;
    }
    expect(selection.files.map(({ path, purpose }) => [path, purpose])).toEqual([
      ['CD/IM1', 'dicom'],
      ['CD/study.zip', 'dicom-zip'],
      ['CD/IM2.dcm', 'dicom'],
    ]);
    expect(selection.skipped.map(({ path }) => path)).toEqual([
      'CD/DICOMDIR',
      'CD/DICOMDIR',
      'CD/autorun.inf',
    ]);
  });

  it("skips pictures beside DICOM (a CD viewer's icons), refuses several images and a choice with neither", async () => {
    const jpeg = fileStartingWith('photo.jpg', SIGNATURES.jpeg);
    const withDicom = await sortChosenFiles(chosen(dicomFile('IM1'), jpeg));
    expect(withDicom).toMatchObject({ kind: 'dicom', files: [{ purpose: 'dicom' }] });
    expect(withDicom.kind !== 'none' && withDicom.skipped.map(({ file }) => file.name)).toEqual([
      'photo.jpg',
    ]);
    expect(await sortChosenFiles(chosen(fileStartingWith('a.zip', SIGNATURES.zip), jpeg))).toMatchObject({
      kind: 'dicom',
      files: [{ purpose: 'dicom-zip' }],
    });
    expect(await sortChosenFiles(chosen(jpeg, fileStartingWith('b.gif', SIGNATURES.gif)))).toMatchObject({
      kind: 'refused',
      message: SELECTION_MESSAGES.oneImage,
    });
    expect(await sortChosenFiles(chosen(fileStartingWith('a.pdf', SIGNATURES.pdf)))).toMatchObject({
      kind: 'refused',
      message: SELECTION_MESSAGES.nothing,
    });
    expect(await sortChosenFiles([])).toEqual({ kind: 'none' });
  });

  it('refuses more files than one filing may name', async () => {
    const one = dicomFile('IM');
    const many = Array.from({ length: 10_001 }, (_, index) => ({ file: one, path: `IM${index}` }));
    expect(await sortChosenFiles(many)).toMatchObject({
      kind: 'refused',
      message: STUDY_MESSAGES.tooManyUploads,
    });
  });
});

describe('describeDicom and describeSkipped', () => {
  it('counts files and adds their sizes', () => {
    const files = [
      { file: dicomFile('a', 30 * MB), path: 'a', purpose: 'dicom' as const },
      { file: dicomFile('b', Math.round(18.2 * MB)), path: 'b', purpose: 'dicom' as const },
    ];
    expect(describeDicom(files)).toBe('2 DICOM files, 48.2 MB');
    expect(describeDicom([...files, { file: dicomFile('z', MB), path: 'z', purpose: 'dicom-zip' }])).toBe(
      '2 DICOM files and 1 ZIP archive, 49.2 MB',
    );
    expect(describeDicom([{ file: dicomFile('z', MB), path: 'z', purpose: 'dicom-zip' }])).toBe(
      '1 ZIP archive, 1.0 MB',
    );
    expect(describeSkipped(1)).toBe('1 file that is not DICOM was skipped');
    expect(describeSkipped(3)).toBe('3 files that are not DICOM were skipped');
  });
});
