import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { newUid } from './dicom-files.js';

const run = promisify(execFile);

/**
 * A generated CT series of known geometry, written by dcmtk's dump2dcm (no data is downloaded):
 * air (-1000 HU) around a water cylinder (0 HU) of radius 100 mm on the axis, a bone rod (+1000 HU)
 * of radius 10 mm 50 mm right of the axis, and a sphere (+100 HU) of radius 30 mm at the centre of
 * the middle slice, so slices differ. Stored values are HU + 1024, unsigned 16 bits (12 stored).
 */
export interface CtPhantom {
  slices: number;
  rows: number;
  columns: number;
  /** Millimetres between pixel centres, the same along rows and columns. */
  pixelSpacing: number;
  /** Millimetres between slice positions. */
  sliceSpacing: number;
  studyUid: string;
  seriesUid: string;
  patientName: string;
  patientId: string;
  /** YYYYMMDD. */
  birthDate: string;
  /** YYYYMMDD; 20260101 when not given. */
  studyDate?: string;
  /** Series Number and Description, to tell apart two series of one study. */
  seriesNumber?: number;
  seriesDescription?: string;
}

export const PHANTOM_HU = { air: -1000, water: 0, bone: 1000, sphere: 100 } as const;
const WATER_RADIUS_MM = 100;
const ROD = { x: 50, y: 0, radius: 10 };
const SPHERE_RADIUS_MM = 30;
const RESCALE_INTERCEPT = -1024;

export function ctPhantom(options: Partial<CtPhantom> = {}): CtPhantom {
  return {
    slices: 20,
    rows: 512,
    columns: 512,
    pixelSpacing: 0.5,
    sliceSpacing: 1.25,
    studyUid: newUid(),
    seriesUid: newUid(),
    patientName: 'Phantom^Ct',
    patientId: 'PHANTOM-1',
    birthDate: '19700101',
    ...options,
  };
}

/** Millimetres from the phantom's centre of slice `index` (0 = the first). */
function sliceZ(phantom: CtPhantom, index: number): number {
  return (index - (phantom.slices - 1) / 2) * phantom.sliceSpacing;
}

/** The Hounsfield value the phantom has at (x, y, z) millimetres from its centre. */
export function phantomHu(x: number, y: number, z: number): number {
  if (Math.hypot(x - ROD.x, y - ROD.y) <= ROD.radius) {
    return PHANTOM_HU.bone;
  }
  if (Math.hypot(x, y, z) <= SPHERE_RADIUS_MM) {
    return PHANTOM_HU.sphere;
  }
  return Math.hypot(x, y) <= WATER_RADIUS_MM ? PHANTOM_HU.water : PHANTOM_HU.air;
}

/** Slice `index`'s stored pixel values, little endian, row by row. */
export function phantomPixels(phantom: CtPhantom, index: number): Buffer {
  const pixels = Buffer.alloc(phantom.rows * phantom.columns * 2);
  const z = sliceZ(phantom, index);
  for (let row = 0; row < phantom.rows; row += 1) {
    const y = (row - (phantom.rows - 1) / 2) * phantom.pixelSpacing;
    for (let column = 0; column < phantom.columns; column += 1) {
      const x = (column - (phantom.columns - 1) / 2) * phantom.pixelSpacing;
      pixels.writeUInt16LE(phantomHu(x, y, z) - RESCALE_INTERCEPT, (row * phantom.columns + column) * 2);
    }
  }
  return pixels;
}

function sliceDump(phantom: CtPhantom, index: number, sopUid: string, pixelFile: string): string {
  const z = sliceZ(phantom, index);
  const left = (-(phantom.columns - 1) / 2) * phantom.pixelSpacing;
  const top = (-(phantom.rows - 1) / 2) * phantom.pixelSpacing;
  return [
    '(0008,0008) CS [ORIGINAL\\PRIMARY\\AXIAL]',
    '(0008,0016) UI =CTImageStorage',
    `(0008,0018) UI [${sopUid}]`,
    `(0008,0020) DA [${phantom.studyDate ?? '20260101'}]`,
    '(0008,0030) TM [120000]',
    '(0008,0050) SH [PHANTOM]',
    '(0008,0060) CS [CT]',
    '(0008,1030) LO [Phantom study]',
    `(0008,103e) LO [${phantom.seriesDescription ?? 'Axial phantom'}]`,
    `(0010,0010) PN [${phantom.patientName}]`,
    `(0010,0020) LO [${phantom.patientId}]`,
    `(0010,0030) DA [${phantom.birthDate}]`,
    `(0018,0050) DS [${phantom.sliceSpacing}]`,
    `(0020,000d) UI [${phantom.studyUid}]`,
    `(0020,000e) UI [${phantom.seriesUid}]`,
    '(0020,0010) SH [1]',
    `(0020,0011) IS [${phantom.seriesNumber ?? 1}]`,
    `(0020,0013) IS [${index + 1}]`,
    `(0020,0032) DS [${left}\\${top}\\${z}]`,
    '(0020,0037) DS [1\\0\\0\\0\\1\\0]',
    `(0020,0052) UI [${phantom.studyUid}.1]`,
    `(0020,1041) DS [${z}]`,
    '(0028,0002) US 1',
    '(0028,0004) CS [MONOCHROME2]',
    `(0028,0010) US ${phantom.rows}`,
    `(0028,0011) US ${phantom.columns}`,
    `(0028,0030) DS [${phantom.pixelSpacing}\\${phantom.pixelSpacing}]`,
    '(0028,0100) US 16',
    '(0028,0101) US 12',
    '(0028,0102) US 11',
    '(0028,0103) US 0',
    '(0028,1050) DS [40]',
    '(0028,1051) DS [400]',
    `(0028,1052) DS [${RESCALE_INTERCEPT}]`,
    '(0028,1053) DS [1]',
    `(7fe0,0010) OW =${pixelFile}`,
    '',
  ].join('\n');
}

/**
 * Writes the phantom's slices into `dir` as explicit little-endian Part 10 files named
 * `IM0001`…, a few dump2dcm processes at a time; returns their paths in slice order.
 */
export async function writeCtPhantom(dir: string, phantom: CtPhantom): Promise<string[]> {
  await fs.mkdir(dir, { recursive: true });
  const files = Array.from({ length: phantom.slices }, (_, index) =>
    path.join(dir, `IM${String(index + 1).padStart(4, '0')}`),
  );
  let next = 0;
  const worker = async () => {
    while (next < phantom.slices) {
      const index = next;
      next += 1;
      const file = files[index]!;
      const pixelFile = `${file}.raw`;
      const dumpFile = `${file}.dump`;
      await fs.writeFile(pixelFile, phantomPixels(phantom, index));
      await fs.writeFile(dumpFile, sliceDump(phantom, index, newUid(), pixelFile));
      await run('dump2dcm', ['-q', '+te', dumpFile, file]);
      await fs.rm(pixelFile);
      await fs.rm(dumpFile);
    }
  };
  await Promise.all(Array.from({ length: 4 }, worker));
  return files;
}
