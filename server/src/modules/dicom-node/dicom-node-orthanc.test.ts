import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { incomingListSchema } from '@ra/shared';
import { createTestApp, type TestApp } from '../../../test/test-app.js';
import { bearer, createPhysician, signIn } from '../../../test/factories.js';
import { ctPhantom, writeCtPhantom } from '../../../test/ct-phantom.js';
import { sampleCopy } from '../../../test/dicom-files.js';
import { freePort } from '../../../test/free-port.js';
import { startOrthanc, type OrthancServer } from '../../../test/orthanc.js';
import { dicomInstances } from '../../db/schema/studies.js';
import { addDicomNode } from './node-registry.service.js';

/*
 * Orthanc, the reference archive, as a DICOM peer of our node: it sends studies to us by C-STORE.
 */

let t: TestApp;
let orthanc: OrthancServer | undefined;
let work: string;
let token: string;

beforeAll(async () => {
  const port = await freePort();
  t = await createTestApp({ DICOM_PORT: String(port), DICOM_AE_TITLE: 'RADARCHIVE' });
  work = await fs.mkdtemp(path.join(os.tmpdir(), 'ra-dimse-orthanc-'));
  const physician = await createPhysician(t.database.db);
  token = (await signIn(t.app, physician.email)).token;
  orthanc = await startOrthanc(
    {},
    {
      aeTitle: 'ORTHANC_PEER',
      modalities: { radarchive: { aeTitle: 'RADARCHIVE', host: '127.0.0.1', port } },
    },
  );
  await addDicomNode(t.database.db, {
    physician: physician.email,
    'ae-title': 'ORTHANC_PEER',
    host: '127.0.0.1',
    port: orthanc.dicomPort,
  });
});
afterAll(async () => {
  // Orthanc is a process of its own: it must not outlive a failed test.
  await orthanc?.stop();
  await t?.close();
  await fs.rm(work, { recursive: true, force: true });
});

async function orthancPost(route: string, body: string | Uint8Array, type = 'application/json') {
  const response = await fetch(`${orthanc!.base}${route}`, {
    method: 'POST',
    headers: { 'content-type': type },
    body,
  });
  const text = await response.text();
  expect(response.status, `${route}: ${text}\n${orthanc!.recentLog()}`).toBe(200);
  return JSON.parse(text) as unknown;
}

function datasetOf(file: Buffer): Buffer {
  return file.subarray(144 + file.readUInt32LE(140));
}

describe('Orthanc and the DICOM node', () => {
  it('takes a study Orthanc sends by C-STORE into the Incoming list, compressed files as they were', async () => {
    const phantom = ctPhantom({ slices: 3, rows: 64, columns: 64, pixelSpacing: 4 });
    const files: Buffer[] = await Promise.all(
      (await writeCtPhantom(work, phantom)).map((file) => fs.readFile(file)),
    );
    const compressed = await sampleCopy('JPEG2000.dcm', { studyUid: phantom.studyUid });
    files.push(compressed);
    const sops: string[] = [];
    // Orthanc tells studies apart by patient too: the sample's own patient makes a study of its own there.
    const orthancStudies = new Set<string>();
    for (const file of files) {
      const stored = (await orthancPost('/instances', new Uint8Array(file), 'application/dicom')) as {
        ID: string;
        ParentStudy: string;
      };
      orthancStudies.add(stored.ParentStudy);
      const tags = (await (
        await fetch(`${orthanc!.base}/instances/${stored.ID}/simplified-tags`)
      ).json()) as {
        SOPInstanceUID: string;
      };
      sops.push(tags.SOPInstanceUID);
    }

    await orthancPost(
      '/modalities/radarchive/store',
      JSON.stringify({ Resources: [...orthancStudies], Synchronous: true }),
    );

    const incoming = await t.app.inject({ method: 'GET', url: '/api/user/incoming', headers: bearer(token) });
    const studies = incomingListSchema.parse(incoming.json()).studies;
    expect(studies.map((study) => [study.study.study_instance_uid, study.source])).toEqual([
      [phantom.studyUid, 'DICOM ORTHANC_PEER'],
    ]);
    const stored = await t.database.db
      .select({
        sop: dicomInstances.sopInstanceUid,
        key: dicomInstances.storageKey,
        syntax: dicomInstances.transferSyntaxUid,
      })
      .from(dicomInstances)
      .where(inArray(dicomInstances.sopInstanceUid, sops));
    expect(stored).toHaveLength(files.length);
    for (const [index, file] of files.entries()) {
      const row = stored.find((instance) => instance.sop === sops[index])!;
      const kept = await fs.readFile(path.join(t.config.storageDir, row.key));
      expect(datasetOf(kept).equals(datasetOf(file)), `instance ${index}`).toBe(true);
    }
    // JPEG 2000 was accepted as proposed, not decompressed on the way.
    expect(stored.find((row) => row.sop === sops.at(-1))!.syntax).toBe('1.2.840.10008.1.2.4.91');
  });
});
