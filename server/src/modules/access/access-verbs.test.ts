import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { imageResponseSchema, SHARE_NO_DOWNLOAD } from '@ra/shared';
import { createTestApp, type TestApp } from '../../../test/test-app.js';
import { bearer, createRadiologist } from '../../../test/factories.js';
import {
  addInvoice,
  setUpAnnotatedArchive,
  signedIn,
  type AnnotatedArchive,
  type Person,
  type Who,
} from '../../../test/annotated-archive.js';
import type { ActorFacts } from '../../lib/actor.js';
import { AppError, Refusal } from '../../lib/errors.js';
import { awaitsPayment, permitted, requireLinkMay, type Verb } from './access.policy.js';

/*
 * Every verb of the access module, asked by each person of one archive about the same records:
 * a patient with an image and a study, their physician, a radiologist paid for both, one whose
 * invoice for the study is still open, and another patient with their own physician and study.
 */

let t: TestApp;
let archive: AnnotatedArchive;
beforeAll(async () => {
  t = await createTestApp();
  archive = await setUpAnnotatedArchive(t);
});
afterAll(() => t.close());

const ROLES: Record<Who, ActorFacts['role']> = {
  physician: 'PHYSICIAN',
  otherPhysician: 'PHYSICIAN',
  patient: 'PATIENT',
  otherPatient: 'PATIENT',
  radiologist: 'RADIOLOGIST',
  unpaidRadiologist: 'RADIOLOGIST',
};

function actor(who: Who): ActorFacts {
  return { id: archive.people[who].id, role: ROLES[who], emailVerified: true };
}

/** What `who` may do with `verb` among `records` (named in the archive), as record names. */
async function allowedNames(who: Who, verb: Verb, records: Record<string, string>): Promise<string[]> {
  const allowed = await permitted(t.app.ctx, actor(who), verb, Object.values(records));
  return Object.entries(records)
    .filter(([, id]) => allowed.has(id))
    .map(([name]) => name)
    .sort();
}

const items = () => ({
  image: archive.items.image,
  study: archive.items.study,
  foreign: archive.items.foreignStudy,
});
const patients = () => ({ patient: archive.people.patient.id, otherPatient: archive.people.otherPatient.id });

const mine = ['image', 'study'];
const EVERYONE: Who[] = [
  'patient',
  'physician',
  'radiologist',
  'unpaidRadiologist',
  'otherPatient',
  'otherPhysician',
];

/** The readers of each item: its patient, their physician, the radiologist paid for it. */
const READERS: Record<Who, string[]> = {
  patient: mine,
  physician: mine,
  radiologist: mine,
  unpaidRadiologist: [],
  otherPatient: ['foreign'],
  otherPhysician: ['foreign'],
};
/** Staff who may read each item. */
const STAFF_READERS: Record<Who, string[]> = {
  patient: [],
  physician: mine,
  radiologist: mine,
  unpaidRadiologist: [],
  otherPatient: [],
  otherPhysician: ['foreign'],
};

/** Per verb, per person: the records they may act on. */
const ON_ITEMS: Partial<Record<Verb, Record<Who, string[]>>> = {
  'item:read': READERS,
  'item:download': READERS,
  'item:extend': STAFF_READERS,
  'note:read': READERS,
  'note:write': STAFF_READERS,
  'annotation:write': READERS,
  'opinion:request': {
    patient: mine,
    physician: [],
    radiologist: [],
    unpaidRadiologist: [],
    otherPatient: ['foreign'],
    otherPhysician: [],
  },
  'share:create': {
    patient: mine,
    physician: mine,
    radiologist: [],
    unpaidRadiologist: [],
    otherPatient: ['foreign'],
    otherPhysician: ['foreign'],
  },
};

const ON_PATIENTS: Partial<Record<Verb, Record<Who, string[]>>> = {
  'patient:read': {
    patient: ['patient'],
    physician: ['patient'],
    radiologist: ['patient'],
    unpaidRadiologist: [],
    otherPatient: ['otherPatient'],
    otherPhysician: ['otherPatient'],
  },
  'item:store': {
    patient: [],
    physician: ['patient'],
    radiologist: ['patient'],
    unpaidRadiologist: [],
    otherPatient: [],
    otherPhysician: ['otherPatient'],
  },
};

describe('the access verbs', () => {
  it.each(Object.keys(ON_ITEMS) as Verb[])('%s on archive items', async (verb) => {
    for (const who of EVERYONE) {
      expect({ who, allowed: await allowedNames(who, verb, items()) }).toEqual({
        who,
        allowed: ON_ITEMS[verb]![who],
      });
    }
  });

  it.each(Object.keys(ON_PATIENTS) as Verb[])('%s on patients', async (verb) => {
    for (const who of EVERYONE) {
      expect({ who, allowed: await allowedNames(who, verb, patients()) }).toEqual({
        who,
        allowed: ON_PATIENTS[verb]![who],
      });
    }
  });

  it('picture:read: staff pictures for everyone, a patient’s for the readers of their record', async () => {
    const people = () => ({
      patient: archive.people.patient.id,
      otherPatient: archive.people.otherPatient.id,
      physician: archive.people.physician.id,
      radiologist: archive.people.radiologist.id,
    });
    const staff = ['physician', 'radiologist'];
    expect(await allowedNames('patient', 'picture:read', people())).toEqual(['patient', ...staff].sort());
    expect(await allowedNames('radiologist', 'picture:read', people())).toEqual(['patient', ...staff].sort());
    expect(await allowedNames('unpaidRadiologist', 'picture:read', people())).toEqual(staff);
    expect(await allowedNames('otherPhysician', 'picture:read', people())).toEqual(
      ['otherPatient', ...staff].sort(),
    );
  });

  it('rating:write: only once the paid radiologist has written on the patient’s item', async () => {
    const radiologists = () => ({
      radiologist: archive.people.radiologist.id,
      unpaidRadiologist: archive.people.unpaidRadiologist.id,
    });
    expect(await allowedNames('patient', 'rating:write', radiologists())).toEqual([]);
    await writeNote(archive.people.radiologist, archive.items.image, 'Nothing of note.');
    expect(await allowedNames('patient', 'rating:write', radiologists())).toEqual(['radiologist']);
    expect(await allowedNames('otherPatient', 'rating:write', radiologists())).toEqual([]);
    expect(await allowedNames('physician', 'rating:write', radiologists())).toEqual([]);
  });

  it('refuses everything to an account whose address is not confirmed', async () => {
    const unverified = { ...actor('physician'), emailVerified: false };
    for (const verb of [...Object.keys(ON_ITEMS), 'patient:read', 'item:store'] as Verb[]) {
      const ids =
        verb === 'patient:read' || verb === 'item:store' ? Object.values(patients()) : Object.values(items());
      expect({ verb, allowed: [...(await permitted(t.app.ctx, unverified, verb, ids))] }).toEqual({
        verb,
        allowed: [],
      });
    }
  });

  it('tells the radiologist whose invoice is open apart, for the 409 of note:write', async () => {
    const { study, image } = archive.items;
    expect(await awaitsPayment(t.app.ctx, actor('unpaidRadiologist'), study)).toBe(true);
    expect(await awaitsPayment(t.app.ctx, actor('unpaidRadiologist'), image)).toBe(false);
    expect(await awaitsPayment(t.app.ctx, actor('radiologist'), study)).toBe(false);
    expect(await awaitsPayment(t.app.ctx, actor('physician'), study)).toBe(false);
  });
});

async function writeNote(author: Person, item: string, note: string): Promise<void> {
  const response = await t.app.inject({
    method: 'PATCH',
    url: `/api/image/${item}`,
    headers: bearer(author.token),
    payload: { note },
  });
  expect(response.statusCode, response.body).toBe(200);
}

async function notesSeenBy(reader: Person, item: string): Promise<string[]> {
  const response = await t.app.inject({
    method: 'GET',
    url: `/api/image/${item}`,
    headers: bearer(reader.token),
  });
  expect(response.statusCode, response.body).toBe(200);
  return imageResponseSchema
    .parse(response.json())
    .image.authors.map((author) => author.note)
    .sort();
}

describe('note:read through GET /api/image/{uid}', () => {
  it('shows the physician’s note to every reader and each opinion to the patient, the physician and its author only', async () => {
    const { people, items: archiveItems } = archive;
    const second = await signedIn(t, await createRadiologist(t.database.db));
    await addInvoice(t, people.patient, second, archiveItems.study, true);
    await writeNote(people.physician, archiveItems.study, 'Query fracture.');
    await writeNote(people.radiologist, archiveItems.study, 'First opinion.');
    await writeNote(second, archiveItems.study, 'Second opinion.');

    const all = ['First opinion.', 'Query fracture.', 'Second opinion.'];
    expect(await notesSeenBy(people.patient, archiveItems.study)).toEqual(all);
    expect(await notesSeenBy(people.physician, archiveItems.study)).toEqual(all);
    expect(await notesSeenBy(people.radiologist, archiveItems.study)).toEqual([
      'First opinion.',
      'Query fracture.',
    ]);
    expect(await notesSeenBy(second, archiveItems.study)).toEqual(['Query fracture.', 'Second opinion.']);
  });
});

describe('requireLinkMay: what a share link lets its holder do', () => {
  const item = '00000000-0000-4000-8000-000000000001';
  const other = '00000000-0000-4000-8000-000000000002';

  it('reads the one item the link names, and no other', () => {
    const link = { itemId: item, allowDownload: false };
    expect(() => requireLinkMay(link, 'item:read', item)).not.toThrow();
    expect(() => requireLinkMay(link, 'item:read', other)).toThrow(AppError);
    expect(() => requireLinkMay({ ...link, allowDownload: true }, 'item:download', other)).toThrow(AppError);
  });

  it('downloads only when the patient allowed it, and says so when not', () => {
    expect(() => requireLinkMay({ itemId: item, allowDownload: true }, 'item:download', item)).not.toThrow();
    const refusal = (() => {
      try {
        requireLinkMay({ itemId: item, allowDownload: false }, 'item:download', item);
      } catch (err) {
        return err;
      }
    })();
    expect(refusal).toBeInstanceOf(Refusal);
    expect(refusal).toMatchObject({ statusCode: 403, message: SHARE_NO_DOWNLOAD });
  });
});
