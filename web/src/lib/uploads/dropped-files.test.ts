import { describe, expect, it } from 'vitest';
import { chosenFilesOfDrop } from './dropped-files';

/** Just enough of the File and Directory Entries API for a dropped folder. */
function fileEntry(fullPath: string) {
  const file = new File(['x'], fullPath.slice(fullPath.lastIndexOf('/') + 1));
  return {
    isFile: true,
    isDirectory: false,
    fullPath,
    file: (resolve: (file: File) => void) => resolve(file),
  };
}

function folderEntry(fullPath: string, children: unknown[], perRead = 2) {
  return {
    isFile: false,
    isDirectory: true,
    fullPath,
    createReader: () => {
      let next = 0;
      return {
        readEntries: (resolve: (entries: unknown[]) => void) => {
          resolve(children.slice(next, next + perRead));
          next += perRead;
        },
      };
    },
  };
}

function dropOf(entries: unknown[], files: File[] = []) {
  return {
    items: entries.map((entry) => ({ kind: 'file', webkitGetAsEntry: () => entry })),
    files,
  } as unknown as DataTransfer;
}

describe('chosenFilesOfDrop', () => {
  it('walks a dropped folder, reading each folder to the end, with paths as a folder input gives them', async () => {
    const cd = folderEntry('/CD', [
      fileEntry('/CD/DICOMDIR'),
      folderEntry('/CD/DICOM', [
        fileEntry('/CD/DICOM/IM1'),
        fileEntry('/CD/DICOM/IM2'),
        fileEntry('/CD/DICOM/IM3'),
      ]),
      fileEntry('/CD/autorun.inf'),
    ]);
    const chosen = await chosenFilesOfDrop(dropOf([cd, fileEntry('/extra.dcm')]));
    expect(chosen.map(({ path, file }) => [path, file.name])).toEqual([
      ['CD/DICOMDIR', 'DICOMDIR'],
      ['CD/DICOM/IM1', 'IM1'],
      ['CD/DICOM/IM2', 'IM2'],
      ['CD/DICOM/IM3', 'IM3'],
      ['CD/autorun.inf', 'autorun.inf'],
      ['extra.dcm', 'extra.dcm'],
    ]);
  });

  it('takes the dropped files as they are where the browser gives no entries', async () => {
    const file = new File(['x'], 'IM1.dcm');
    const chosen = await chosenFilesOfDrop({ items: [], files: [file] } as unknown as DataTransfer);
    expect(chosen).toEqual([{ file, path: 'IM1.dcm' }]);
  });
});
