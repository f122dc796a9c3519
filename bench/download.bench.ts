/**
 * A study's download as a ZIP (docs/api.md §12.4) beside a plain copy of the same files: a
 * SLICES-slice 512×512 16-bit CT phantom stored by STOW-RS (bench/dicom.bench.ts), downloaded
 * whole by its patient over loopback, the bytes counted and thrown away as they come; then `cp -r`
 * of the same files on the same disk. Both read files the page cache likely holds.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { DOWNLOAD_PATHS, imagePageSchema } from '@ra/shared';
import type { Api } from './lib/api.js';
import { SLICES, storePhantomStudy } from './dicom.bench.js';

const run = promisify(execFile);
/** Timed downloads and copies; the median is reported. */
const RUNS = 3;

export interface DownloadFigures {
  zipBytes: number;
  filesBytes: number;
  /** Seconds, medians. */
  download: number;
  copy: number;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

/** Seconds to receive the whole answer of `url`, with its size. */
async function timedDownload(api: Api, url: string): Promise<{ seconds: number; bytes: number }> {
  const started = performance.now();
  const response = await fetch(`${api.base}${url}`, { headers: { authorization: api.authorization } });
  if (!response.ok || !response.body) {
    throw new Error(`${url}: ${response.status} ${await response.text()}`);
  }
  let bytes = 0;
  for await (const chunk of response.body) {
    bytes += (chunk as Uint8Array).byteLength;
  }
  return { seconds: (performance.now() - started) / 1000, bytes };
}

export async function downloadFigures(
  physician: Api,
  patient: Api,
  patientUid: string,
  workDir: string,
): Promise<DownloadFigures> {
  await storePhantomStudy(physician, patientUid, workDir);
  const page = imagePageSchema.parse(await patient.json('GET', `/api/user/${patientUid}/images?limit=1`));
  const study = page.images.find((image) => image.kind === 'study');
  if (!study) {
    throw new Error('The phantom study was not filed.');
  }
  // The phantom's files as storePhantomStudy wrote them: the bytes the archive stored.
  const source = path.join(workDir, 'viewer');
  const files = fs.readdirSync(source).filter((name) => /^IM\d+$/.test(name));
  const filesBytes = files.reduce((sum, name) => sum + fs.statSync(path.join(source, name)).size, 0);
  await timedDownload(patient, DOWNLOAD_PATHS.item(study.uid));
  const downloads: number[] = [];
  let zipBytes = 0;
  for (let index = 0; index < RUNS; index += 1) {
    const figure = await timedDownload(patient, DOWNLOAD_PATHS.item(study.uid));
    downloads.push(figure.seconds);
    zipBytes = figure.bytes;
  }
  const copies: number[] = [];
  for (let index = 0; index < RUNS; index += 1) {
    const target = path.join(workDir, `copy-${index}`);
    const started = performance.now();
    await run('cp', ['-r', source, target]);
    copies.push((performance.now() - started) / 1000);
    fs.rmSync(target, { recursive: true, force: true });
  }
  return { zipBytes, filesBytes, download: median(downloads), copy: median(copies) };
}

export function printDownloadTable(figures: DownloadFigures): void {
  const mbps = (bytes: number, seconds: number) => `${(bytes / 1e6 / seconds).toFixed(0)} MB/s`;
  console.log(`\nDownload as ZIP: ${SLICES}-instance 512×512 16-bit CT, median of ${RUNS}\n`);
  console.log('| figure | time | rate |');
  console.log('|---|---:|---:|');
  console.log(
    `| ZIP download over loopback (${(figures.zipBytes / 1e6).toFixed(0)} MB) | ${figures.download.toFixed(2)} s | ${mbps(figures.zipBytes, figures.download)} |`,
  );
  console.log(
    `| cp -r of the same ${SLICES} files (${(figures.filesBytes / 1e6).toFixed(0)} MB) | ${figures.copy.toFixed(2)} s | ${mbps(figures.filesBytes, figures.copy)} |`,
  );
  console.log(
    `| download / cp | | ${(figures.zipBytes / figures.download / (figures.filesBytes / figures.copy)).toFixed(2)} |`,
  );
}
