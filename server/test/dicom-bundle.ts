import { dicomBundleEnd, dicomBundlePartHead } from '@ra/shared';

/** A DICOM bundle (shared/src/dicom-bundle.ts) of these files, as the Upload page sends a folder. */
export function dicomBundle(files: { path: string; bytes: Buffer }[], boundary = 'ra-bundle-test'): Buffer {
  return Buffer.concat([
    ...files.flatMap(({ path, bytes }) => [
      Buffer.from(dicomBundlePartHead(boundary, path)),
      bytes,
      Buffer.from('\r\n'),
    ]),
    Buffer.from(dicomBundleEnd(boundary)),
  ]);
}
