import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { incomingListSchema, type DicomJsonDataset } from '@ra/shared';
import { createTestApp, type TestApp } from '../../../test/test-app.js';
import { bearer, createPatient, createPhysician, signIn } from '../../../test/factories.js';
import { ctPhantom, phantomPixels, writeCtPhantom, type CtPhantom } from '../../../test/ct-phantom.js';
import { sampleCopy } from '../../../test/dicom-files.js';
import { startOrthanc, type OrthancServer } from '../../../test/orthanc.js';
import { stow } from '../../../test/stow.js';
import { parseDicom } from '../dicom/dicom-parser.js';
import { readString } from '../dicom/dicom-values.js';
import { linkPatient } from '../patients/patients.repository.js';
import { readMultipartRelated, type ReadPart } from '../../lib/multipart-related/multipart-related.js';

/**
 * Interoperability with Orthanc, the reference archive, over real HTTP. Orthanc, with our server as
 * its DICOMweb peer `archive` (signed in as a physician), pulls studies from us by WADO-RS and pushes
 * one to us by STOW-RS; then the files both servers hold give the same QIDO-RS answers and the same
 * frames, byte for byte. The tests run in order: the comparisons use the studies Orthanc pulled.
 */

type Server = 'ours' | 'orthanc';

let t: TestApp;
let orthanc: OrthancServer | undefined;
let token: string;
let patientUid: string;
/** Our DICOMweb root. */
let archive: string;
let workDir: string;
/** The studies both servers hold once Orthanc has pulled them, with the files we were given. */
const onBoth: { studyUid: string; files: Buffer[]; phantom?: CtPhantom }[] = [];

const DICOM_JSON = 'application/dicom+json';
/** Frames as stored: a compressed frame's codestream, an uncompressed frame's pixels. */
const FRAMES_AS_STORED = 'multipart/related; type="application/octet-stream"; transfer-syntax=*';
const MULTIPART_LIMITS = { maxParts: 100, maxPartBytes: 64 * 1024 ** 2, maxTotalBytes: 256 * 1024 ** 2 };

/**
 * Result attributes QIDO-RS requires that both servers return by default: they must be in both
 * answers. Beyond them the defaults differ (Orthanc leaves out Study Description and adds Specific
 * Character Set, say), so any other attribute is compared only where both return it.
 */
const REQUIRED = {
  study: ['0020000D', '00100010', '00100020', '00100030', '00080020', '00080061', '00201206', '00201208'],
  series: ['0020000E', '00080060', '00200011', '00201209'],
  instance: ['00080016', '00080018', '00200013'],
};
const RETRIEVE_URL = '00081190';

/** A small phantom (small for speed) and its Part 10 files in slice order. */
async function phantomStudy(name: string, options: Partial<CtPhantom>) {
  const phantom = ctPhantom({ slices: 4, rows: 64, columns: 64, ...options });
  const paths = await writeCtPhantom(path.join(workDir, name), phantom);
  return { phantom, files: await Promise.all(paths.map((file) => fs.readFile(file))) };
}

/** A UID attribute (Study, Series, SOP Instance, Transfer Syntax…) of a Part 10 file. */
function uidOf(file: Buffer, tag: string): string {
  const { meta, dataset } = parseDicom(file);
  return readString(tag.startsWith('0002') ? meta : dataset, tag);
}

/** A call of Orthanc's REST API; a failure shows Orthanc's log, where a failed job says why. */
async function orthancPost(route: string, body: string | Buffer, type = 'application/json') {
  const response = await fetch(`${orthanc!.base}${route}`, {
    method: 'POST',
    headers: { 'content-type': type },
    body,
  });
  const text = await response.text();
  expect(response.status, `${route}: ${text}\n${orthanc!.recentLog()}`).toBe(200);
  return JSON.parse(text) as unknown;
}

/** Orthanc's id of the instance with this SOP Instance UID. */
async function orthancInstanceId(sopInstanceUid: string): Promise<string> {
  const found = (await orthancPost('/tools/lookup', sopInstanceUid, 'text/plain')) as {
    ID: string;
    Type: string;
  }[];
  const instance = found.find((entry) => entry.Type === 'Instance');
  expect(instance, `Orthanc has no instance ${sopInstanceUid}`).toBeDefined();
  return instance!.ID;
}

/** A DICOMweb GET from our server (as the physician) or from Orthanc's; anything but 200 fails. */
async function dicomwebGet(server: Server, route: string, accept: string): Promise<Response> {
  const response =
    server === 'ours'
      ? await fetch(`${archive}${route}`, { headers: { accept, ...bearer(token) } })
      : await fetch(`${orthanc!.dicomweb}${route}`, { headers: { accept } });
  expect(response.status, `${server}: ${route}`).toBe(200);
  return response;
}

/** A QIDO-RS answer by the UID that names each result at its level. */
async function search(server: Server, route: string, uidTag: string): Promise<Map<string, DicomJsonDataset>> {
  const datasets = (await (await dicomwebGet(server, route, DICOM_JSON)).json()) as DicomJsonDataset[];
  return new Map(datasets.map((dataset) => [String(dataset[uidTag]?.Value?.[0]), dataset]));
}

async function frames(server: Server, route: string): Promise<ReadPart[]> {
  const response = await dicomwebGet(server, route, FRAMES_AS_STORED);
  const body = Readable.fromWeb(response.body as WebReadableStream<Uint8Array>);
  const parts: ReadPart[] = [];
  for await (const part of readMultipartRelated(
    body,
    response.headers.get('content-type') ?? '',
    MULTIPART_LIMITS,
  )) {
    parts.push(part);
  }
  return parts;
}

/** The transfer-syntax parameter of a part's Content-Type. */
function transferSyntaxOf(part: ReadPart): string | undefined {
  return /transfer-syntax="?([0-9.]+)/.exec(part.contentType)?.[1];
}

/**
 * Compares one result of both servers: the required attributes are in both, and every attribute both
 * return has the same vr and Value. Where only one returns an attribute it is not compared: Orthanc
 * leaves out an attribute the file lacks (Patient's Sex of the phantom), where we return it empty.
 * Retrieve URLs name each server's own host and DICOMweb root (Orthanc's /dicom-web, ours /dicomweb
 * at the configured public URL): only the path after the root must be the same. Both write IS values
 * as JSON numbers (PS3.18 F.2.3), so no conversion is needed.
 */
function expectSameAttributes(
  ours: DicomJsonDataset,
  theirs: DicomJsonDataset,
  required: string[],
  what: string,
) {
  for (const tag of required) {
    expect(ours[tag], `${what} ${tag} in our answer`).toBeDefined();
    expect(theirs[tag], `${what} ${tag} in Orthanc's`).toBeDefined();
  }
  const shared = Object.keys(ours).filter((tag) => tag in theirs);
  for (const tag of shared.filter((tag) => tag !== RETRIEVE_URL)) {
    expect({ vr: ours[tag]!.vr, Value: ours[tag]!.Value }, `${what} ${tag}`).toEqual({
      vr: theirs[tag]!.vr,
      Value: theirs[tag]!.Value,
    });
  }
  const afterRoot = (dataset: DicomJsonDataset) =>
    String(dataset[RETRIEVE_URL]?.Value?.[0]).replace(/^.*?\/studies\//, '');
  expect(afterRoot(ours), `${what} ${RETRIEVE_URL}`).toBe(afterRoot(theirs));
}

/** Both servers' answers to a QIDO-RS search, result by result (the same results on both). */
async function expectSameSearch(route: string, uidTag: string, required: string[]): Promise<string[]> {
  const [ours, theirs] = [await search('ours', route, uidTag), await search('orthanc', route, uidTag)];
  expect([...ours.keys()].sort(), route).toEqual([...theirs.keys()].sort());
  for (const [uid, dataset] of ours) {
    expectSameAttributes(dataset, theirs.get(uid)!, required, `${route} ${uid}`);
  }
  return [...ours.keys()];
}

beforeAll(async () => {
  t = await createTestApp();
  const db = t.database.db;
  const physician = await createPhysician(db);
  const patient = await createPatient(db);
  await linkPatient(db, patient.id, physician.id);
  patientUid = patient.id;
  token = (await signIn(t.app, physician.email)).token;
  archive = `${await t.app.listen({ host: '127.0.0.1', port: 0 })}/dicomweb`;
  workDir = await fs.mkdtemp(path.join(os.tmpdir(), 'ra-interop-'));
  orthanc = await startOrthanc({ archive: { url: archive, headers: { Authorization: `Bearer ${token}` } } });
});
afterAll(async () => {
  // Orthanc is a process of its own: it must not outlive a failed test.
  await orthanc?.stop();
  await t?.close();
  if (workDir) {
    await fs.rm(workDir, { recursive: true, force: true });
  }
});

describe('Orthanc with our server as its DICOMweb peer', () => {
  it('pulls studies from us by WADO-RS and stores every file byte for byte', async () => {
    const { phantom, files } = await phantomStudy('pulled', { patientId: 'INTEROP-PULL' });
    const compressed = await sampleCopy('JPEG2000.dcm');
    for (const study of [files, [compressed]]) {
      const filed = await stow(t.app, token, study, `?patient=${patientUid}&confirm_patient_mismatch=true`);
      expect(filed.statusCode, filed.body).toBe(200);
    }
    const studies = [
      { studyUid: phantom.studyUid, files, phantom },
      { studyUid: uidOf(compressed, '0020000D'), files: [compressed] },
    ];

    const pulled = await orthancPost(
      '/dicom-web/servers/archive/retrieve',
      JSON.stringify({ Resources: studies.map(({ studyUid }) => ({ Study: studyUid })) }),
    );
    expect(pulled).toMatchObject({ ReceivedInstancesCount: String(files.length + 1) });
    // Orthanc stores what it receives as it is: the meta header too.
    for (const file of [...files, compressed]) {
      const id = await orthancInstanceId(uidOf(file, '00080018'));
      const stored = Buffer.from(await (await fetch(`${orthanc!.base}/instances/${id}/file`)).arrayBuffer());
      expect(stored.equals(file)).toBe(true);
    }
    onBoth.push(...studies);
  });

  it('pushes a study to us by STOW-RS, which waits in the Incoming list', async () => {
    const { phantom, files } = await phantomStudy('pushed', { slices: 3, patientId: 'INTEROP-PUSH' });
    const stored: { ParentStudy: string }[] = [];
    for (const file of files) {
      stored.push((await orthancPost('/instances', file, 'application/dicom')) as { ParentStudy: string });
    }

    // Orthanc sends the study in one chunked request, whose boundary is longer than RFC 2046 allows.
    const pushed = await orthancPost(
      '/dicom-web/servers/archive/stow',
      JSON.stringify({ Resources: [stored[0]!.ParentStudy] }),
    );
    expect(pushed).toMatchObject({ InstancesCount: String(files.length) });

    const incoming = await t.app.inject({ method: 'GET', url: '/api/user/incoming', headers: bearer(token) });
    const waiting = incomingListSchema
      .parse(incoming.json())
      .studies.filter(({ study }) => study.study_instance_uid === phantom.studyUid);
    expect(waiting.map(({ study }) => study)).toEqual([
      expect.objectContaining({ instance_count: files.length, series_count: 1, modalities: ['CT'] }),
    ]);
  });

  it('gives the same QIDO-RS answers for the same files', async () => {
    expect(onBoth).toHaveLength(2);
    for (const { studyUid } of onBoth) {
      await expectSameSearch(`/studies?StudyInstanceUID=${studyUid}`, '0020000D', REQUIRED.study);
      const series = await expectSameSearch(`/studies/${studyUid}/series`, '0020000E', REQUIRED.series);
      for (const seriesUid of series) {
        await expectSameSearch(
          `/studies/${studyUid}/series/${seriesUid}/instances`,
          '00080018',
          REQUIRED.instance,
        );
      }
    }
  });

  it('sends the same frames as stored, byte for byte', async () => {
    expect(onBoth).toHaveLength(2);
    for (const { studyUid, files, phantom } of onBoth) {
      for (const [index, file] of files.entries()) {
        const route = `/studies/${studyUid}/series/${uidOf(file, '0020000E')}/instances/${uidOf(file, '00080018')}/frames/1`;
        const [ours, theirs] = [await frames('ours', route), await frames('orthanc', route)];
        expect(ours).toHaveLength(1);
        expect(theirs).toHaveLength(1);
        // Orthanc labels a JPEG 2000 frame image/jp2, we application/octet-stream as asked: both
        // name the transfer syntax, which is what a client decodes by.
        expect(transferSyntaxOf(ours[0]!), route).toBe(uidOf(file, '00020010'));
        expect(transferSyntaxOf(theirs[0]!), route).toBe(transferSyntaxOf(ours[0]!));
        expect(ours[0]!.body.equals(theirs[0]!.body), route).toBe(true);
        // Known content: the phantom's pixels; a JPEG 2000 codestream starts with its SOC and SIZ markers.
        if (phantom) {
          expect(ours[0]!.body.equals(phantomPixels(phantom, index)), route).toBe(true);
        } else {
          expect(ours[0]!.body.subarray(0, 4).toString('hex'), route).toBe('ff4fff51');
        }
      }
    }
  });
});
