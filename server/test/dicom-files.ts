import crypto from 'node:crypto';
import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { readDicomSample } from './dicom-samples.js';

const run = promisify(execFile);

/** A new, globally unique DICOM UID (the 2.25 root takes a UUID as a decimal number). */
export function newUid(): string {
  return `2.25.${BigInt(`0x${crypto.randomUUID().replaceAll('-', '')}`).toString()}`;
}

export interface DicomChanges {
  patientName?: string;
  /** YYYYMMDD, as DICOM writes dates. */
  birthDate?: string;
  studyUid?: string;
  seriesUid?: string;
  sopUid?: string;
  seriesNumber?: number;
  instanceNumber?: number;
}

/**
 * A copy of a pydicom sample with new UIDs (so each test files its own study) and the given
 * changes, written with dcmtk's dcmodify; the bytes of the resulting Part 10 file.
 */
export async function sampleCopy(sample: string, changes: DicomChanges = {}): Promise<Buffer> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'ra-dicom-'));
  const file = path.join(dir, 'copy.dcm');
  try {
    await fs.writeFile(file, readDicomSample(sample));
    const set = (tag: string, value: string | number | undefined) =>
      value === undefined ? [] : ['-i', `(${tag})=${value}`];
    await run('dcmodify', [
      '-nb',
      '-ie',
      ...set('0020,000d', changes.studyUid ?? newUid()),
      ...set('0020,000e', changes.seriesUid ?? newUid()),
      ...set('0008,0018', changes.sopUid ?? newUid()),
      ...set('0010,0010', changes.patientName),
      ...set('0010,0030', changes.birthDate),
      ...set('0020,0011', changes.seriesNumber),
      ...set('0020,0013', changes.instanceNumber),
      file,
    ]);
    return await fs.readFile(file);
  } finally {
    await fs.rm(dir, { recursive: true, force: true });
  }
}
