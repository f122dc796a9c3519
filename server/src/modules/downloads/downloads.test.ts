import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { accessHistoryPageSchema, downloadManifestSchema } from '@ra/shared';
import type { TestApp } from '../../../test/test-app.js';
import { bearer, createPatient } from '../../../test/factories.js';
import { unzip } from '../../../test/zip-reader.js';
import {
  signedIn,
  startAnnotatedArchive,
  type AnnotatedArchive,
  type Person,
} from '../../../test/annotated-archive.js';
import { archiveItems } from '../../db/schema/archive-items.js';
import { auditLog } from '../../db/schema/audit.js';
import { dicomInstances } from '../../db/schema/studies.js';

/*
 * GET /api/image/:uid/download and GET /api/user/archive/download (docs/api.md §12.4): the ZIP
 * holds every stored file byte for byte, a DICOMDIR that dcmtk and pydicom read, an escaped
 * index.html and archive.json; only the item's readers get it, only a patient gets their
 * archive, every item's download is audited, and a Range resumes the same bytes.
 */

const run = promisify(execFile);
/** Debian's python3 holds python3-pydicom (a python3 first on PATH may not). */
const PYTHON = '/usr/bin/python3';

let t: TestApp;
let archive: AnnotatedArchive;
const SCRIPT_NOTE = '<script>alert("x")</script> & more';
const ANALYSIS = 'No fracture. <b>Not bold</b>';

function download(who: Person | undefined, url: string, headers: Record<string, string> = {}) {
  return t.app.inject({ method: 'GET', url, headers: { ...(who ? bearer(who.token) : {}), ...headers } });
}

const itemUrl = (uid: string) => `/api/image/${uid}/download`;
const ARCHIVE_URL = '/api/user/archive/download';

async function storedBytes(key: string): Promise<Buffer> {
  return fs.readFile(path.join(t.config.storageDir, key));
}

/** Writes the entries into a new folder, as a user unpacking the ZIP would; returns the folder. */
async function unpack(entries: Map<string, Buffer>): Promise<string> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'ra-download-'));
  for (const [name, data] of entries) {
    await fs.mkdir(path.dirname(path.join(dir, name)), { recursive: true });
    await fs.writeFile(path.join(dir, name), data);
  }
  return dir;
}

const PYDICOM_FILESET = `
import sys
from pydicom import dcmread
from pydicom.fileset import FileSet
fs = FileSet(dcmread(sys.argv[1]))
for instance in fs:
    ds = instance.load()
    assert ds.SOPInstanceUID == instance.ReferencedSOPInstanceUIDInFile, "referenced UID"
    assert ds.file_meta.TransferSyntaxUID == instance.ReferencedTransferSyntaxUIDInFile, "transfer syntax"
    print(instance.path.replace(sys.argv[2], "").lstrip("/"), ds.SOPInstanceUID, instance.PatientID, instance.StudyInstanceUID, instance.SeriesInstanceUID)
`;

beforeAll(async () => {
  ({ t, archive } = await startAnnotatedArchive());
  const note = await t.app.inject({
    method: 'PATCH',
    url: `/api/image/${archive.items.study}`,
    headers: bearer(archive.people.physician.token),
    payload: { note: SCRIPT_NOTE },
  });
  expect(note.statusCode, note.body).toBe(200);
  // On the raster image: a study's analysis would start the report job, which adds instances later.
  const analysis = await t.app.inject({
    method: 'PATCH',
    url: `/api/image/${archive.items.image}`,
    headers: bearer(archive.people.radiologist.token),
    payload: { note: ANALYSIS },
  });
  expect(analysis.statusCode, analysis.body).toBe(200);
}, 60_000);
afterAll(() => t.close());

describe('GET /api/image/:uid/download', () => {
  it('streams the study as a ZIP: every stored file byte for byte, a DICOMDIR, index.html and archive.json', async () => {
    const response = await download(archive.people.physician, itemUrl(archive.items.study));
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers['content-type']).toBe('application/zip');
    expect(response.headers['content-disposition']).toMatch(
      /^attachment; filename="radiology-archive-study-/,
    );
    expect(Number(response.headers['content-length'])).toBe(response.rawPayload.length);
    const entries = await unzip(response.rawPayload);
    expect([...entries.keys()]).toEqual([
      'DICOMDIR',
      'index.html',
      'archive.json',
      'DICOM/S0001/SE0001/IM000001',
      'DICOM/S0001/SE0001/IM000002',
    ]);
    const stored = await t.database.db
      .select({ sop: dicomInstances.sopInstanceUid, key: dicomInstances.storageKey })
      .from(dicomInstances)
      .where(eq(dicomInstances.itemId, archive.items.study))
      .orderBy(dicomInstances.instanceNumber);
    expect(stored.map((row) => row.sop)).toEqual([archive.uids.first, archive.uids.second]);
    expect(entries.get('DICOM/S0001/SE0001/IM000001')!.equals(await storedBytes(stored[0]!.key))).toBe(true);
    expect(entries.get('DICOM/S0001/SE0001/IM000002')!.equals(await storedBytes(stored[1]!.key))).toBe(true);

    const manifest = downloadManifestSchema.parse(JSON.parse(entries.get('archive.json')!.toString('utf8')));
    expect(manifest.scope).toBe('item');
    expect(manifest.patient.full_name).toBe('Pat One');
    expect(manifest.items.map((item) => [item.uid, item.kind, item.files])).toEqual([
      [archive.items.study, 'study', ['DICOM/S0001/SE0001/IM000001', 'DICOM/S0001/SE0001/IM000002']],
    ]);
    expect(manifest.items[0]!.notes.find((note) => note.role === 'PHYSICIAN')?.note).toBe(SCRIPT_NOTE);
  });

  it('writes a DICOMDIR that dcmdump reads and that pydicom reads as a file-set finding every instance', async () => {
    const response = await download(archive.people.patient, itemUrl(archive.items.study));
    const entries = await unzip(response.rawPayload);
    const dir = await unpack(entries);
    try {
      const dump = await run('dcmdump', ['+L', path.join(dir, 'DICOMDIR')]);
      expect(dump.stderr).toBe('');
      expect(dump.stdout).toContain('=MediaStorageDirectoryStorage');
      expect(dump.stdout).toContain('(0004,1500) CS [DICOM\\S0001\\SE0001\\IM000001]');
      expect(dump.stdout).toContain('(0004,1500) CS [DICOM\\S0001\\SE0001\\IM000002]');
      for (const type of ['PATIENT', 'STUDY', 'SERIES', 'IMAGE']) {
        expect(dump.stdout).toContain(`(0004,1430) CS [${type}`);
      }
      const fileSet = await run(PYTHON, ['-c', PYDICOM_FILESET, path.join(dir, 'DICOMDIR'), dir]);
      const lines = fileSet.stdout.trim().split('\n').sort();
      expect(lines.map((line) => line.split(' ').slice(0, 2))).toEqual([
        ['DICOM/S0001/SE0001/IM000001', archive.uids.first],
        ['DICOM/S0001/SE0001/IM000002', archive.uids.second],
      ]);
      expect(lines[0]!.split(' ')[4]).toBe(archive.uids.series);
    } finally {
      await fs.rm(dir, { recursive: true, force: true });
    }
  });

  it('escapes what users wrote in index.html', async () => {
    const entries = await unzip(
      (await download(archive.people.patient, itemUrl(archive.items.study))).rawPayload,
    );
    const page = entries.get('index.html')!.toString('utf8');
    expect(page).toContain('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; more');
    expect(page).not.toContain('<script');
    expect(page).toContain('Pat One');
  });

  it('gives a raster image as it was uploaded, without a DICOMDIR', async () => {
    const response = await download(archive.people.radiologist, itemUrl(archive.items.image));
    expect(response.statusCode, response.body).toBe(200);
    const entries = await unzip(response.rawPayload);
    expect([...entries.keys()]).toEqual(['index.html', 'archive.json', 'IMAGES/IMG00001.png']);
    const [row] = await t.database.db
      .select({ key: archiveItems.storageKey })
      .from(archiveItems)
      .where(eq(archiveItems.id, archive.items.image));
    expect(entries.get('IMAGES/IMG00001.png')!.equals(await storedBytes(row!.key))).toBe(true);
    const manifest = downloadManifestSchema.parse(JSON.parse(entries.get('archive.json')!.toString('utf8')));
    expect(manifest.dicomdir).toBeNull();
  });

  it('answers 404 to whoever may not read the item, exactly as for a missing one, and 401 without a token', async () => {
    const missing = await download(archive.people.physician, itemUrl('00000000-0000-4000-8000-000000000000'));
    expect(missing.statusCode).toBe(404);
    for (const who of [
      archive.people.otherPatient,
      archive.people.otherPhysician,
      archive.people.unpaidRadiologist,
    ]) {
      const response = await download(who, itemUrl(archive.items.study));
      expect(response.statusCode).toBe(404);
      expect(response.body).toBe(missing.body);
    }
    expect((await download(archive.people.otherPhysician, itemUrl('not-a-uid'))).statusCode).toBe(404);
    expect((await download(undefined, itemUrl(archive.items.study))).statusCode).toBe(401);
  });

  it("audits each download before sending it, and the patient's access history shows it", async () => {
    const before = await downloadRows(archive.items.study, archive.people.physician.id);
    expect((await download(archive.people.physician, itemUrl(archive.items.study))).statusCode).toBe(200);
    expect(await downloadRows(archive.items.study, archive.people.physician.id)).toBe(before + 1);
    const history = await t.app.inject({
      method: 'GET',
      url: '/api/user/access-history',
      headers: bearer(archive.people.patient.token),
    });
    const entries = accessHistoryPageSchema.parse(history.json()).entries;
    expect(entries[0]).toMatchObject({
      action: 'download',
      item_uid: archive.items.study,
      actor: { uid: archive.people.physician.id },
    });
  });

  it('resumes with a Range: the tail is the same bytes as the whole download', async () => {
    const whole = await download(archive.people.patient, itemUrl(archive.items.study));
    const etag = whole.headers.etag as string;
    expect(etag).toMatch(/^"[\w-]+"$/);
    const size = whole.rawPayload.length;
    for (const start of [1, 600, size - 10]) {
      const tail = await download(archive.people.patient, itemUrl(archive.items.study), {
        range: `bytes=${start}-`,
        'if-range': etag,
      });
      expect(tail.statusCode).toBe(206);
      expect(tail.headers['content-range']).toBe(`bytes ${start}-${size - 1}/${size}`);
      expect(tail.rawPayload.equals(whole.rawPayload.subarray(start))).toBe(true);
    }
    const middle = await download(archive.people.patient, itemUrl(archive.items.study), {
      range: 'bytes=100-199',
    });
    expect(middle.statusCode).toBe(206);
    expect(middle.rawPayload.equals(whole.rawPayload.subarray(100, 200))).toBe(true);
    // A ZIP that changed since (another ETag) is sent whole; a range past the end is refused.
    const changed = await download(archive.people.patient, itemUrl(archive.items.study), {
      range: 'bytes=10-',
      'if-range': '"other"',
    });
    expect(changed.statusCode).toBe(200);
    expect(changed.rawPayload.equals(whole.rawPayload)).toBe(true);
    const past = await download(archive.people.patient, itemUrl(archive.items.study), {
      range: `bytes=${size}-`,
    });
    expect(past.statusCode).toBe(416);
    expect(past.headers['content-range']).toBe(`bytes */${size}`);
  });
});

async function downloadRows(itemId: string, actorId: string): Promise<number> {
  const rows = await t.database.db
    .select({ id: auditLog.id })
    .from(auditLog)
    .where(
      and(
        eq(auditLog.actorId, actorId),
        eq(auditLog.action, 'download'),
        eq(auditLog.recordId, `downloads/${itemId}.zip`),
      ),
    );
  return rows.length;
}

describe('GET /api/user/archive/download', () => {
  it("gives the patient every item of their archive and audits each item's download", async () => {
    const before = await downloadRows(archive.items.image, archive.people.patient.id);
    const response = await download(archive.people.patient, ARCHIVE_URL);
    expect(response.statusCode, response.body).toBe(200);
    const entries = await unzip(response.rawPayload);
    expect([...entries.keys()]).toEqual([
      'DICOMDIR',
      'index.html',
      'archive.json',
      'IMAGES/IMG00001.png',
      'DICOM/S0001/SE0001/IM000001',
      'DICOM/S0001/SE0001/IM000002',
    ]);
    const manifest = downloadManifestSchema.parse(JSON.parse(entries.get('archive.json')!.toString('utf8')));
    expect(manifest.scope).toBe('archive');
    expect(manifest.items.map((item) => item.uid)).toEqual([archive.items.image, archive.items.study]);
    expect(manifest.items[0]!.notes.find((note) => note.role === 'RADIOLOGIST')).toMatchObject({
      full_name: 'Dr. Ray Diologist',
      note: ANALYSIS,
    });
    const page = entries.get('index.html')!.toString('utf8');
    expect(page).toContain('Radiologist&#39;s analysis: Dr. Ray Diologist');
    expect(page).toContain('No fracture. &lt;b&gt;Not bold&lt;/b&gt;');
    expect(page).not.toContain('<b>');
    expect(await downloadRows(archive.items.image, archive.people.patient.id)).toBe(before + 1);
    expect(await downloadRows(archive.items.study, archive.people.patient.id)).toBeGreaterThan(0);
  });

  it('gives a patient with no items a ZIP of the page and the facts alone', async () => {
    const newcomer = await signedIn(
      t,
      await createPatient(t.database.db, { firstName: 'New', lastName: 'Comer' }),
    );
    const response = await download(newcomer, ARCHIVE_URL);
    expect(response.statusCode, response.body).toBe(200);
    const entries = await unzip(response.rawPayload);
    expect([...entries.keys()]).toEqual(['index.html', 'archive.json']);
    const manifest = downloadManifestSchema.parse(JSON.parse(entries.get('archive.json')!.toString('utf8')));
    expect(manifest).toMatchObject({ scope: 'archive', items: [], dicomdir: null });
  });

  it('is for patients only: staff get 403', async () => {
    for (const who of [archive.people.physician, archive.people.radiologist]) {
      expect((await download(who, ARCHIVE_URL)).statusCode).toBe(403);
    }
    expect((await download(undefined, ARCHIVE_URL)).statusCode).toBe(401);
  });
});
