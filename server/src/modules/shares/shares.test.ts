import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import {
  accessHistoryPageSchema,
  createdShareSchema,
  dicomJsonListSchema,
  downloadManifestSchema,
  notificationListSchema,
  openedShareSchema,
  SHARE_NO_DOWNLOAD,
  SHARE_OPENED_MESSAGE,
  shareListPageSchema,
  uploadStudyResponseSchema,
} from '@ra/shared';
import { createTestApp, type TestApp } from '../../../test/test-app.js';
import {
  bearer,
  createPatient,
  createPhysician,
  createRadiologist,
  signIn,
} from '../../../test/factories.js';
import { newUid, sampleCopy } from '../../../test/dicom-files.js';
import { uploadFile } from '../../../test/uploads.js';
import { readOutbox } from '../../../test/outbox.js';
import { unzip } from '../../../test/zip-reader.js';
import { auditLog } from '../../db/schema/audit.js';
import { shareLinks } from '../../db/schema/shares.js';
import { linkPatient } from '../patients/patients.repository.js';
import { setShareExpiry } from './shares.repository.js';
import { tokenHashOf } from './share-secrets.js';
import { withoutShareToken } from '../../lib/log-redaction.js';

let t: TestApp;
type Person = { id: string; token: string };
const people = {} as Record<'physician' | 'patient' | 'otherPatient' | 'radiologist' | 'stranger', Person>;
const uids = { ct: newUid(), series: newUid(), sop: newUid(), mr: newUid() };
let ctItem = '';
let mrItem = '';
const NOT_AVAILABLE = { error: 'This link is not available.' };
const PHYSICIAN_NOTE = 'Incidental finding, discuss at the next visit.';

async function file(token: string, patient: string, files: Buffer[]) {
  const uploads: string[] = [];
  for (const bytes of files) {
    uploads.push(await uploadFile(t.app, token, bytes, 'dicom'));
  }
  const response = await t.app.inject({
    method: 'POST',
    url: '/api/user/upload-study',
    headers: bearer(token),
    payload: { patient, uploads, confirm_patient_mismatch: true },
  });
  expect(response.statusCode).toBe(201);
  return uploadStudyResponseSchema.parse(response.json()).items[0]!.uid;
}

beforeAll(async () => {
  t = await createTestApp({}, { jobPollingSeconds: 0.5 });
  const db = t.database.db;
  const accounts = {
    physician: await createPhysician(db),
    patient: await createPatient(db, { firstName: 'Jane', lastName: 'Doe' }),
    otherPatient: await createPatient(db),
    radiologist: await createRadiologist(db),
    stranger: await createPatient(db),
  };
  for (const [name, user] of Object.entries(accounts)) {
    people[name as keyof typeof people] = { id: user.id, token: (await signIn(t.app, user.email)).token };
  }
  await linkPatient(db, accounts.patient.id, accounts.physician.id);
  await linkPatient(db, accounts.otherPatient.id, accounts.physician.id);
  ctItem = await file(people.physician.token, people.patient.id, [
    await sampleCopy('CT_small.dcm', { studyUid: uids.ct, seriesUid: uids.series, sopUid: uids.sop }),
  ]);
  const noted = await t.app.inject({
    method: 'PATCH',
    url: `/api/image/${ctItem}`,
    headers: bearer(people.physician.token),
    payload: { note: PHYSICIAN_NOTE },
  });
  expect(noted.statusCode, noted.body).toBe(200);
  mrItem = await file(people.physician.token, people.otherPatient.id, [
    await sampleCopy('MR_small.dcm', { studyUid: uids.mr }),
  ]);
});
afterAll(() => t.close());

function share(person: Person | undefined, item: string, payload: Record<string, unknown>) {
  return t.app.inject({
    method: 'POST',
    url: `/api/image/${item}/shares`,
    headers: person ? bearer(person.token) : {},
    payload,
  });
}

async function newShare(payload: Record<string, unknown> = {}, person = people.patient, item = ctItem) {
  const response = await share(person, item, { allow_download: false, ...payload });
  expect(response.statusCode, response.body).toBe(201);
  const created = createdShareSchema.parse(response.json()).share;
  const token = new URL(created.url).pathname.replace(/^\/s\//, '');
  return { ...created, token };
}

function open(token: string, code?: string, url = '') {
  return t.app.inject({
    method: 'GET',
    url: `/api/s/${token}${url}`,
    headers: code === undefined ? {} : { 'x-access-code': code },
  });
}

describe('POST /api/image/:uid/shares', () => {
  it('makes a link for the patient and for their physician, and refuses anyone else', async () => {
    const mine = await newShare({ expires_in_hours: 24, access_code: '1234', note: 'For Dr Who' });
    expect(mine).toMatchObject({
      allow_download: false,
      has_access_code: true,
      last_opened_at: null,
      open_count: 0,
    });
    expect(mine.url).toMatch(/\/s\/[A-Za-z0-9_-]{43}$/);
    const hours = (Date.parse(mine.expires_at) - Date.parse(mine.created_at)) / 3600_000;
    expect(Math.round(hours)).toBe(24);
    const byPhysician = await newShare({}, people.physician);
    expect(byPhysician.has_access_code).toBe(false);
    // The default is seven days.
    expect(Math.round((Date.parse(byPhysician.expires_at) - Date.now()) / 3600_000)).toBe(168);

    const radiologist = await share(people.radiologist, ctItem, { allow_download: false });
    expect([403, 404]).toContain(radiologist.statusCode);
    const stranger = await share(people.stranger, ctItem, { allow_download: false });
    expect(stranger.statusCode).toBe(404);
    expect((await share(undefined, ctItem, { allow_download: false })).statusCode).toBe(401);
    // The patient's own link never reaches another patient's item.
    expect((await share(people.patient, mrItem, { allow_download: false })).statusCode).toBe(404);
  });

  it('refuses values out of range with 400', async () => {
    const cases = [
      { allow_download: false, expires_in_hours: 0 },
      { allow_download: false, expires_in_hours: 721 },
      { allow_download: false, access_code: '12a' },
      { allow_download: false, access_code: '123' },
      { allow_download: false, note: 'x'.repeat(501) },
      { expires_in_hours: 5 },
    ];
    for (const payload of cases) {
      const response = await share(people.patient, ctItem, payload);
      expect(response.statusCode, JSON.stringify(payload)).toBe(400);
      expect(response.json().errors.length).toBeGreaterThan(0);
    }
    expect(
      (await share(people.patient, ctItem, { allow_download: true, note: 'x'.repeat(500) })).statusCode,
    ).toBe(201);
  });

  it('keeps only hashes: two tokens are distinct, 256-bit, and neither is stored', async () => {
    const first = await newShare({ access_code: '246810' });
    const second = await newShare({ access_code: '246810' });
    expect(first.token).not.toBe(second.token);
    expect(Buffer.from(first.token, 'base64url')).toHaveLength(32);
    const rows = await t.database.db.select().from(shareLinks).where(eq(shareLinks.id, first.uid));
    expect(rows[0]!.tokenHash).toBe(tokenHashOf(first.token));
    expect(rows[0]!.tokenHash).not.toContain(first.token);
    expect(rows[0]!.accessCodeHash).not.toContain('246810');
    const [other] = await t.database.db.select().from(shareLinks).where(eq(shareLinks.id, second.uid));
    // The same code on two links is not the same hash.
    expect(other!.accessCodeHash).not.toBe(rows[0]!.accessCodeHash);
  });

  it('emails the link when a recipient is named', async () => {
    const created = await newShare({ recipient_email: 'friend@example.com' });
    await t.app.ctx.mailer.drain();
    const mail = readOutbox(t.dataDir).find((message) => message.to === 'friend@example.com');
    expect(mail?.body).toContain(created.url);
  });
});

describe('GET /api/s/:token', () => {
  it('opens a link without a code at once', async () => {
    const link = await newShare();
    const response = await open(link.token);
    expect(response.statusCode).toBe(200);
    const opened = openedShareSchema.parse(response.json());
    expect(opened.patient.full_name).toBe('Jane Doe');
    expect(opened.item.uid).toBe(ctItem);
    expect(opened.allow_download).toBe(false);
    expect(opened.dicomweb_root).toBe(`/api/s/${link.token}/dicomweb`);
  });

  it('asks for the code, refuses a wrong one and opens with the right one', async () => {
    const link = await newShare({ access_code: '9876' });
    expect((await open(link.token)).json()).toEqual({ needs_access_code: true });
    const wrong = await open(link.token, '1111');
    expect(wrong.statusCode).toBe(401);
    expect(wrong.json()).toEqual({ error: 'The access code is incorrect.' });
    const right = await open(link.token, '9876');
    expect(right.statusCode).toBe(200);
    expect(openedShareSchema.parse(right.json()).item.uid).toBe(ctItem);
  });

  it('locks a link after ten wrong codes, answering like an unknown link', async () => {
    const link = await newShare({ access_code: '5555' });
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 10; attempt += 1) {
      statuses.push((await open(link.token, '0000')).statusCode);
    }
    expect(statuses.slice(0, 9)).toEqual(Array(9).fill(401));
    expect(statuses[9]).toBe(404);
    const locked = await open(link.token, '5555');
    expect(locked.statusCode).toBe(404);
    expect(locked.body).toBe((await open('no-such-token')).body);
    expect(locked.json()).toEqual(NOT_AVAILABLE);
  });

  it('answers an expired link like an unknown one', async () => {
    const link = await newShare();
    expect((await open(link.token)).statusCode).toBe(200);
    await setShareExpiry(t.database.db, link.uid, new Date(Date.now() - 1000));
    const expired = await open(link.token);
    expect(expired.statusCode).toBe(404);
    expect(expired.json()).toEqual(NOT_AVAILABLE);
  });

  it('counts openings, audits them with the link as the actor and tells the patient once a day', async () => {
    const link = await newShare();
    const before = await notificationsOf(people.patient);
    await open(link.token);
    await open(link.token);
    const after = await notificationsOf(people.patient);
    expect(after.filter((n) => n === SHARE_OPENED_MESSAGE)).toHaveLength(
      before.filter((n) => n === SHARE_OPENED_MESSAGE).length + 1,
    );
    const listed = shareListPageSchema
      .parse(
        (
          await t.app.inject({
            method: 'GET',
            url: '/api/user/shares',
            headers: bearer(people.patient.token),
          })
        ).json(),
      )
      .shares.find((entry) => entry.uid === link.uid);
    expect(listed).toMatchObject({ open_count: 2, item_uid: ctItem, is_active: true });
    expect(listed!.last_opened_at).not.toBeNull();
    expect(listed!.item?.kind).toBe('study');

    const rows = await t.database.db.select().from(auditLog).where(eq(auditLog.actorId, link.uid));
    expect(rows.filter((row) => row.recordType === 'share')).toHaveLength(2);
    expect(rows.every((row) => row.patientId === people.patient.id)).toBe(true);

    const history = await accessHistoryOf(people.patient);
    const opening = history.entries.find((entry) => entry.action === 'share_open');
    expect(opening).toMatchObject({
      via: 'share_link',
      actor: null,
      item_uid: ctItem,
      who: { kind: 'share', label: `Link shared ${link.created_at.slice(0, 10)}` },
    });
  });
});

async function accessHistoryOf(person: Person) {
  const response = await t.app.inject({
    method: 'GET',
    url: '/api/user/access-history',
    headers: bearer(person.token),
  });
  return accessHistoryPageSchema.parse(response.json());
}

async function notificationsOf(person: Person): Promise<string[]> {
  const response = await t.app.inject({
    method: 'GET',
    url: '/api/notification/polling',
    headers: bearer(person.token),
  });
  return notificationListSchema.parse(response.json()).map((n) => n.message);
}

describe('GET /api/s/:token/download', () => {
  const download = (token: string, code?: string, headers: Record<string, string> = {}) =>
    t.app.inject({
      method: 'GET',
      url: `/api/s/${token}/download`,
      headers: { ...headers, ...(code === undefined ? {} : { 'x-access-code': code }) },
    });

  it('sends the shared item’s ZIP with the code: the stored file byte for byte, without the notes', async () => {
    const link = await newShare({ allow_download: true, access_code: '4821' });
    expect((await download(link.token)).statusCode).toBe(401);
    expect((await download(link.token, '0000')).json()).toEqual({ error: 'The access code is incorrect.' });

    const response = await download(link.token, '4821');
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers['content-type']).toBe('application/zip');
    const entries = await unzip(response.rawPayload);
    const dicomFiles = [...entries.keys()].filter((name) => /^DICOM\/.+\/.+/.test(name));
    expect(dicomFiles).toHaveLength(1);

    // The patient's own ZIP of the item holds the same file, and the physician's note the link does not show.
    const own = await unzip(
      (
        await t.app.inject({
          method: 'GET',
          url: `/api/image/${ctItem}/download`,
          headers: bearer(people.patient.token),
        })
      ).rawPayload,
    );
    expect(entries.get(dicomFiles[0]!)!.equals(own.get(dicomFiles[0]!)!)).toBe(true);
    expect(entries.has('DICOMDIR')).toBe(true);
    const shared = downloadManifestSchema.parse(JSON.parse(entries.get('archive.json')!.toString('utf8')));
    const ownManifest = downloadManifestSchema.parse(JSON.parse(own.get('archive.json')!.toString('utf8')));
    expect(ownManifest.items[0]!.notes.map((note) => note.note)).toContain(PHYSICIAN_NOTE);
    expect(shared.items).toHaveLength(1);
    expect(shared.items[0]!.notes).toEqual([]);
    expect(entries.get('index.html')!.toString('utf8')).not.toContain(PHYSICIAN_NOTE);

    // Resumed by Range with the ZIP's ETag: the same bytes.
    const resumed = await download(link.token, '4821', {
      range: 'bytes=100-',
      'if-range': String(response.headers.etag),
    });
    expect(resumed.statusCode).toBe(206);
    expect(resumed.rawPayload.equals(response.rawPayload.subarray(100))).toBe(true);

    // Audited as downloads by the link, shown to the patient as the link's.
    const rows = await t.database.db.select().from(auditLog).where(eq(auditLog.actorId, link.uid));
    expect(rows.filter((row) => row.action === 'download')).toHaveLength(2);
    const history = await accessHistoryOf(people.patient);
    expect(
      history.entries.find((entry) => entry.action === 'download' && entry.via === 'share_link'),
    ).toMatchObject({
      item_uid: ctItem,
      who: { kind: 'share', label: `Link shared ${link.created_at.slice(0, 10)}` },
    });
  });

  it('refuses a link made without downloading, and answers a revoked one like an unknown one', async () => {
    const viewOnly = await newShare({ allow_download: false });
    const refused = await download(viewOnly.token);
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toEqual({ error: SHARE_NO_DOWNLOAD });
    const rows = await t.database.db.select().from(auditLog).where(eq(auditLog.actorId, viewOnly.uid));
    expect(rows.filter((row) => row.action === 'download')).toHaveLength(0);

    const revoked = await newShare({ allow_download: true });
    expect((await download(revoked.token)).statusCode).toBe(200);
    const revoke = await t.app.inject({
      method: 'DELETE',
      url: `/api/shares/${revoked.uid}`,
      headers: bearer(people.patient.token),
    });
    expect(revoke.statusCode).toBe(204);
    const gone = await download(revoked.token);
    expect(gone.statusCode).toBe(404);
    expect(gone.json()).toEqual(NOT_AVAILABLE);
    expect((await download('x'.repeat(43))).json()).toEqual(NOT_AVAILABLE);
  });

  it('answers a resumed request on a view-only link as any other, and hostile tokens with 4xx', async () => {
    const viewOnly = await newShare({ allow_download: false });
    const ranged = await download(viewOnly.token, undefined, { range: 'bytes=0-99' });
    expect(ranged.statusCode).toBe(403);
    expect(ranged.json()).toEqual({ error: SHARE_NO_DOWNLOAD });

    // Longer than any token (the router's parameter bound), or with a NUL: refused before any lookup.
    for (const token of ['x'.repeat(201), `${viewOnly.token}%00`]) {
      const hostile = await download(token);
      expect([400, 404]).toContain(hostile.statusCode);
      expect(hostile.headers['content-type']).toMatch(/^application\/json/);
    }
  });
});

describe('GET /api/user/shares and DELETE /api/shares/:uid', () => {
  it('lists the caller’s own links newest first, and pages them', async () => {
    const a = await newShare({}, people.physician);
    const b = await newShare({}, people.physician);
    const page = shareListPageSchema.parse(
      (
        await t.app.inject({
          method: 'GET',
          url: '/api/user/shares?limit=1',
          headers: bearer(people.physician.token),
        })
      ).json(),
    );
    expect(page.shares.map((entry) => entry.uid)).toEqual([b.uid]);
    const next = shareListPageSchema.parse(
      (
        await t.app.inject({
          method: 'GET',
          url: `/api/user/shares?limit=1&cursor=${page.next_cursor}`,
          headers: bearer(people.physician.token),
        })
      ).json(),
    );
    expect(next.shares.map((entry) => entry.uid)).toEqual([a.uid]);
    const strangers = shareListPageSchema.parse(
      (
        await t.app.inject({ method: 'GET', url: '/api/user/shares', headers: bearer(people.stranger.token) })
      ).json(),
    );
    expect(strangers.shares).toEqual([]);
  });

  it('revokes at once for its creator only', async () => {
    const link = await newShare({ access_code: '4321' });
    expect((await open(link.token, '4321')).statusCode).toBe(200);
    for (const person of [people.stranger, people.physician]) {
      const refused = await t.app.inject({
        method: 'DELETE',
        url: `/api/shares/${link.uid}`,
        headers: bearer(person.token),
      });
      expect(refused.statusCode).toBe(404);
    }
    const revoked = await t.app.inject({
      method: 'DELETE',
      url: `/api/shares/${link.uid}`,
      headers: bearer(people.patient.token),
    });
    expect(revoked.statusCode).toBe(204);
    const after = await open(link.token, '4321');
    expect(after.statusCode).toBe(404);
    expect(after.json()).toEqual(NOT_AVAILABLE);
    const dicomweb = await open(link.token, '4321', `/dicomweb/studies/${uids.ct}/series`);
    expect(dicomweb.statusCode).toBe(404);
  });
});

describe('the link’s DICOMweb', () => {
  it('reads the shared study with the code, and nothing of any other study', async () => {
    const link = await newShare({ access_code: '13579' });
    const series = await open(link.token, '13579', `/dicomweb/studies/${uids.ct}/series`);
    expect(series.statusCode, series.body).toBe(200);
    expect(dicomJsonListSchema.parse(series.json())).toHaveLength(1);
    const metadata = await open(
      link.token,
      '13579',
      `/dicomweb/studies/${uids.ct}/series/${uids.series}/metadata`,
    );
    expect(metadata.statusCode).toBe(200);
    const frames = await t.app.inject({
      method: 'GET',
      url: `/api/s/${link.token}/dicomweb/studies/${uids.ct}/series/${uids.series}/instances/${uids.sop}/frames/1`,
      headers: { 'x-access-code': '13579', accept: 'multipart/related; type="application/octet-stream"' },
    });
    expect(frames.statusCode).toBe(200);
    const rendered = await t.app.inject({
      method: 'GET',
      url: `/api/s/${link.token}/dicomweb/studies/${uids.ct}/series/${uids.series}/instances/${uids.sop}/rendered`,
      headers: { 'x-access-code': '13579', accept: 'image/png' },
    });
    expect(rendered.statusCode).toBe(200);

    // Without the code, or with a wrong one, nothing; another patient's study does not exist.
    expect((await open(link.token, undefined, `/dicomweb/studies/${uids.ct}/series`)).statusCode).toBe(401);
    expect((await open(link.token, '00000', `/dicomweb/studies/${uids.ct}/series`)).statusCode).toBe(401);
    const otherSeries = await open(link.token, '13579', `/dicomweb/studies/${uids.mr}/series`);
    expect(otherSeries.statusCode).toBe(200);
    expect(otherSeries.json()).toEqual([]);
    expect((await open(link.token, '13579', `/dicomweb/studies/${uids.mr}/metadata`)).statusCode).toBe(404);
    const search = await open(link.token, '13579', `/dicomweb/studies`);
    expect(dicomJsonListSchema.parse(search.json())).toHaveLength(1);
    // Signed-in DICOMweb is not reachable with a token alone.
    expect(
      (
        await open(
          link.token,
          '13579',
          `/dicomweb/studies/${uids.ct}/series/${uids.series}/instances/${uids.sop}`,
        )
      ).statusCode,
    ).toBe(404);

    const reads = await t.database.db.select().from(auditLog).where(eq(auditLog.actorId, link.uid));
    expect(reads.some((row) => row.action === 'download' && row.recordId === `studies/${ctItem}`)).toBe(true);
  });
});

describe('logs', () => {
  it('leave out the token of a share link’s paths', () => {
    expect(withoutShareToken('/api/s/abcDEF_-123/dicomweb/studies/1.2')).toBe(
      '/api/s/[token]/dicomweb/studies/1.2',
    );
    expect(withoutShareToken('/s/abcDEF_-123')).toBe('/s/[token]');
    expect(withoutShareToken('/api/shares/7c1e4a52')).toBe('/api/shares/7c1e4a52');
  });
});
