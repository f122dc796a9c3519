import { describe, expect, it } from 'vitest';
import { dicomFile, fileStartingWith, SIGNATURES } from '../../test/files';
import { classifyFiles, kindOf, readHead } from './file-kind';

async function kindOfFile(file: File, path = file.name) {
  return kindOf(await readHead(file), path);
}

describe('kindOf', () => {
  it('knows DICOM by "DICM" at byte 128, whatever the name', async () => {
    expect(await kindOfFile(dicomFile('IM000001'))).toBe('dicom');
    expect(await kindOfFile(dicomFile('slice.dcm'))).toBe('dicom');
    expect(await kindOfFile(dicomFile('photo.jpg'))).toBe('dicom');
  });

  it('prefers the DICOM marker to a preamble that looks like a TIFF', async () => {
    expect(await kindOfFile(dicomFile('dual.dcm', 1024, { preamble: SIGNATURES.tiffLittle }))).toBe('dicom');
  });

  it('knows a ZIP by PK\\x03\\x04 at byte 0', async () => {
    expect(await kindOfFile(fileStartingWith('study', SIGNATURES.zip))).toBe('zip');
  });

  it('knows JPEG, PNG, WebP, GIF and both TIFF byte orders as images', async () => {
    for (const head of [
      SIGNATURES.jpeg,
      SIGNATURES.png,
      SIGNATURES.webp,
      SIGNATURES.gif,
      SIGNATURES.tiffLittle,
      SIGNATURES.tiffBig,
    ]) {
      expect(await kindOfFile(fileStartingWith('picture', head))).toBe('image');
    }
  });

  it('counts anything else as other: PDFs, autorun.inf, a RIFF that is not WebP, "DICM" elsewhere, empty files', async () => {
    expect(await kindOfFile(fileStartingWith('README.pdf', SIGNATURES.pdf))).toBe('other');
    expect(await kindOfFile(fileStartingWith('autorun.inf', SIGNATURES.autorun))).toBe('other');
    const wave = [...'RIFF\u0000\u0000\u0000\u0000WAVE'].map((c) => c.charCodeAt(0));
    expect(await kindOfFile(fileStartingWith('sound.wav', wave))).toBe('other');
    expect(await kindOfFile(fileStartingWith('raw.dcm', [0x44, 0x49, 0x43, 0x4d]))).toBe('other');
    expect(await kindOfFile(new File([], 'empty'))).toBe('other');
  });

  it('skips DICOMDIR, a DICOM file itself, in any case and folder', async () => {
    expect(await kindOfFile(dicomFile('DICOMDIR'))).toBe('other');
    expect(await kindOfFile(dicomFile('dicomdir'), 'CD/dicomdir')).toBe('other');
    expect(await kindOfFile(dicomFile('DICOMDIR.dcm'))).toBe('dicom');
  });
});

describe('classifyFiles', () => {
  it('gives each file its kind, in order, for more files than it reads at once', async () => {
    const chosen = Array.from({ length: 40 }, (_, index) => {
      const file =
        index % 4 === 0 ? fileStartingWith(`doc${index}.pdf`, SIGNATURES.pdf) : dicomFile(`IM${index}`);
      return { file, path: `CD/DICOM/${file.name}` };
    });
    const kinds = await classifyFiles(chosen);
    expect(kinds).toEqual(chosen.map((_, index) => (index % 4 === 0 ? 'other' : 'dicom')));
  });
});
