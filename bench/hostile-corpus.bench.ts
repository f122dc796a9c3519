/**
 * The hostile corpus one input at a time, against the production server: what the server answers
 * each, how slow /api/health is meanwhile (p99) and how high its resident memory goes. Every file
 * is built here (server/test/hostile-dicom.ts and dicom-bombs.ts); nothing is downloaded.
 */
import { deflateBomb, elementBomb, hostileUids, pixelBomb } from '../server/test/dicom-bombs.js';
import { newUid } from '../server/test/dicom-files.js';
import { hostileFile } from '../server/test/hostile-dicom.js';
import type { Api } from './lib/api.js';
import { percentile, postStow, watched } from './hostile.bench.js';

interface CorpusRow {
  input: string;
  answer: string;
  healthP99: number;
  peakRssMb: number;
}

/** A STOW-RS request of `files`: its status and, when some failed, their failure reasons. */
async function stowAnswer(physician: Api, query: string, files: Buffer[]): Promise<string> {
  const response = await postStow(physician, query, files);
  const answer = (await response.json()) as Record<
    string,
    { Value?: Record<string, { Value?: number[] }>[] }
  >;
  const reasons = (answer['00081198']?.Value ?? []).map(
    (item) => `0x${(item['00081197']?.Value?.[0] ?? 0).toString(16).toUpperCase()}`,
  );
  const found = (answer as { found?: unknown[] }).found;
  return [
    `STOW ${response.status}`,
    reasons.length > 0 ? `failed ${[...new Set(reasons)].join(', ')}` : '',
    found ? `${found.length} people named` : '',
  ]
    .filter(Boolean)
    .join(', ');
}

async function getAnswer(physician: Api, path: string, accept: string): Promise<string> {
  const response = await fetch(`${physician.base}${path}`, {
    headers: { authorization: physician.authorization, accept },
  });
  const bytes = (await response.arrayBuffer()).byteLength;
  return `${response.status} (${bytes > 1024 ** 2 ? `${(bytes / 1024 ** 2).toFixed(1)} MB` : `${bytes} B`})`;
}

export async function hostileCorpus(
  physician: Api,
  patientUid: string,
  serverPid: number,
): Promise<CorpusRow[]> {
  const filed = `?patient=${patientUid}&confirm_patient_mismatch=true`;
  const asked = `?patient=${patientUid}`;
  const instancePath = (uids: { study: string; series: string; sop: string }) =>
    `/dicomweb/studies/${uids.study}/series/${uids.series}/instances/${uids.sop}`;
  const deflate = hostileUids();
  const pixel = hostileUids();
  const longText = newUid();
  // Every file is built before the server is watched: building a million elements here would hold
  // this process's own health poller and be counted against the server.
  const deflateFile = await deflateBomb(deflate, 400 * 1024 ** 2);
  const fourDeflateFiles = await Promise.all(
    [0, 1, 2, 3].map(() => deflateBomb(hostileUids(), 400 * 1024 ** 2)),
  );
  const pixelFile = await pixelBomb(pixel);
  const elementFile = elementBomb(hostileUids(), 1_000_000);
  const series = newUid();
  const report = 'R'.repeat(10 * 1024 ** 2);
  const longTextFiles = Array.from(
    { length: 55 },
    (_, index) =>
      hostileFile({
        studyUid: longText,
        seriesUid: series,
        elements: {
          '0040A160': { vr: 'UT', value: report },
          ...(index === 0 ? { '00081030': { vr: 'UT', value: 'D'.repeat(20 * 1024 ** 2) } } : {}),
        },
      }).bytes,
  );
  const inputs: [string, () => Promise<string>][] = [
    [
      'deflate bomb (≈400 KB → 400 MB), stored then /rendered',
      async () =>
        `${await stowAnswer(physician, filed, [deflateFile])}; rendered ${await getAnswer(physician, `${instancePath(deflate)}/rendered`, 'image/jpeg')}`,
    ],
    [
      'four deflate bombs in one STOW-RS (1.6 MB)',
      async () => stowAnswer(physician, filed, fourDeflateFiles),
    ],
    [
      'pixel bomb: 2 KB JPEG-LS declaring 12000×12000, stored then /frames/1 uncompressed',
      async () =>
        `${await stowAnswer(physician, filed, [pixelFile])}; frame ${await getAnswer(physician, `${instancePath(pixel)}/frames/1`, 'multipart/related; type="application/octet-stream"')}`,
    ],
    ['element bomb: 1 million private elements', async () => stowAnswer(physician, filed, [elementFile])],
    [
      '55 instances with a 10 MB UT (one with a 20 MB StudyDescription), then the series metadata',
      async () => {
        const stored = await stowAnswer(physician, filed, longTextFiles);
        return `${stored}; metadata ${await getAnswer(physician, `/dicomweb/studies/${longText}/series/${series}/metadata`, 'application/dicom+json')}`;
      },
    ],
    [
      'NUL in a text attribute',
      async () =>
        stowAnswer(physician, filed, [
          hostileFile({ elements: { '00081030': { vr: 'LO', value: 'A\u0000B' } } }).bytes,
        ]),
    ],
    [
      'InstanceNumber 99999999999',
      async () =>
        stowAnswer(physician, filed, [
          hostileFile({ elements: { '00200013': { vr: 'IS', value: '99999999999' } } }).bytes,
        ]),
    ],
    [
      'CRLF in the Transfer Syntax UID',
      async () =>
        stowAnswer(physician, filed, [hostileFile({ transferSyntax: '1.2.840.10008.1.2.1\r\n' }).bytes]),
    ],
    [
      'a folder naming four people, sent without confirming',
      async () =>
        stowAnswer(
          physician,
          asked,
          ['Doe^Jane', 'Smith^John', 'Roe^Richard', 'Poe^Edgar'].map(
            (patientName) => hostileFile({ patientName, studyUid: longText }).bytes,
          ),
        ),
    ],
    [
      'JSON body nested 5,000 deep (sign-in)',
      async () => {
        const depth = 5000;
        const response = await fetch(`${physician.base}/api/auth/signin`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: `{"email":${'['.repeat(depth)}${']'.repeat(depth)}}`,
        });
        await response.arrayBuffer();
        return String(response.status);
      },
    ],
    [
      'QIDO StudyDate=20201340',
      async () => getAnswer(physician, '/dicomweb/studies?StudyDate=20201340', 'application/dicom+json'),
    ],
    [
      '/studies/*/metadata',
      async () => getAnswer(physician, '/dicomweb/studies/*/metadata', 'application/dicom+json'),
    ],
  ];
  const rows: CorpusRow[] = [];
  for (const [input, send] of inputs) {
    const { result, latencies, peakRss } = await watched(physician.base, serverPid, send);
    rows.push({ input, answer: result, healthP99: percentile(latencies, 99), peakRssMb: peakRss });
  }
  return rows;
}

export function printHostileCorpus(rows: CorpusRow[], startRssMb: number): void {
  console.log(
    `\n| hostile input | answer | /api/health p99 | peak RSS (${startRssMb.toFixed(0)} MB before) |`,
  );
  console.log('|---|---|---:|---:|');
  for (const row of rows) {
    console.log(
      `| ${row.input} | ${row.answer} | ${row.healthP99.toFixed(0)} ms | ${row.peakRssMb.toFixed(0)} MB |`,
    );
  }
}
