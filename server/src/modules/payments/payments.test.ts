import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { createTestApp, type TestApp } from '../../../test/test-app.js';
import {
  bearer,
  createPatient,
  createPhysician,
  createRadiologist,
  signIn,
} from '../../../test/factories.js';
import { pngImage, uploadFile } from '../../../test/uploads.js';
import { notifications } from '../../db/schema/notifications.js';
import { invoices } from '../../db/schema/payments.js';
import { linkPatient } from '../patients/patients.repository.js';

let t: TestApp;
type Person = { id: string; token: string };
let physician: Person;
let radiologist: Person;
let otherRadiologist: Person;

async function person(create: () => Promise<{ id: string; email: string }>): Promise<Person> {
  const user = await create();
  return { id: user.id, token: (await signIn(t.app, user.email)).token };
}

beforeAll(async () => {
  t = await createTestApp();
  physician = await person(() => createPhysician(t.database.db));
  radiologist = await person(() =>
    createRadiologist(t.database.db, { firstName: 'Rae', lastName: 'Paid', feeDollars: 149.5 }),
  );
  otherRadiologist = await person(() => createRadiologist(t.database.db, { lastName: 'Other' }));
});
afterAll(() => t.close());

/** A patient of the physician with one image. */
async function patientWithImage(): Promise<Person & { imageId: string }> {
  const patient = await person(() => createPatient(t.database.db, { firstName: 'Pia', lastName: 'Payer' }));
  await linkPatient(t.database.db, patient.id, physician.id);
  const url = await uploadFile(t.app, physician.token, await pngImage(30, 30));
  const posted = await t.app.inject({
    method: 'POST',
    url: '/api/user/upload-image',
    headers: bearer(physician.token),
    payload: { patient: patient.id, notes: 'n', url },
  });
  return { ...patient, imageId: posted.json().uid };
}

function requestInvoice(token: string, radiologistId: string, image: string) {
  return t.app.inject({
    method: 'POST',
    url: `/api/payment/${radiologistId}/invoice`,
    headers: bearer(token),
    payload: { image },
  });
}

function pay(token: string, invoiceId: string) {
  return t.app.inject({
    method: 'POST',
    url: `/api/payment/sandbox/${invoiceId}/pay`,
    headers: bearer(token),
  });
}

describe('invoices', () => {
  it('are for patients, for their own images and existing radiologists', async () => {
    const patient = await patientWithImage();
    const other = await patientWithImage();
    expect(
      (
        await t.app.inject({
          method: 'POST',
          url: `/api/payment/${radiologist.id}/invoice`,
          payload: { image: patient.imageId },
        })
      ).statusCode,
    ).toBe(401);
    expect((await requestInvoice(physician.token, radiologist.id, patient.imageId)).statusCode).toBe(403);
    expect((await requestInvoice(other.token, radiologist.id, patient.imageId)).statusCode).toBe(404);
    expect((await requestInvoice(patient.token, physician.id, patient.imageId)).statusCode).toBe(404);
    expect((await requestInvoice(patient.token, 'nope', patient.imageId)).statusCode).toBe(404);
  });

  it('cost the radiologist’s fee, one open at a time, one per image and radiologist', async () => {
    const patient = await patientWithImage();
    const created = await requestInvoice(patient.token, radiologist.id, patient.imageId);
    expect(created.statusCode).toBe(201);
    const invoice = created.json().invoice;
    expect(created.json()).toMatchObject({ success: true, msg: 'Successfully created invoice.' });
    expect(invoice).toMatchObject({
      amount: 149.5,
      paid: false,
      status: 'open',
      url: `/pay/${invoice.uid}`,
      radiologist: { uid: radiologist.id, title: 'Dr.', first_name: 'Rae', last_name: 'Paid' },
      image_uid: patient.imageId,
      // What it is for, so that the patient can tell their items apart.
      item: { kind: 'image', study: null, createdAt: expect.any(String), physician_note: 'n' },
    });
    // Requesting notifies no one and grants nothing.
    expect(
      await t.database.db.select().from(notifications).where(eq(notifications.userId, radiologist.id)),
    ).toHaveLength(0);
    const again = await requestInvoice(patient.token, otherRadiologist.id, patient.imageId);
    expect(again.statusCode).toBe(409);
    expect(again.json().msg).toBe(
      'You have unpaid invoices. Please pay or cancel them before requesting another opinion.',
    );

    expect((await pay(patient.token, invoice.uid)).statusCode).toBe(200);
    const duplicate = await requestInvoice(patient.token, radiologist.id, patient.imageId);
    expect(duplicate.json()).toEqual({
      success: false,
      msg: 'Image already has an invoice for this radiologist.',
    });
  });

  it('two simultaneous requests create exactly one invoice', async () => {
    const patient = await patientWithImage();
    const responses = await Promise.all([
      requestInvoice(patient.token, radiologist.id, patient.imageId),
      requestInvoice(patient.token, radiologist.id, patient.imageId),
    ]);
    expect(responses.map((r) => r.statusCode).sort()).toEqual([201, 409]);
    const rows = await t.database.db.select().from(invoices).where(eq(invoices.patientId, patient.id));
    expect(rows).toHaveLength(1);
  });

  it('are listed newest first only to their patient, and cancelled only by them', async () => {
    const patient = await patientWithImage();
    const other = await patientWithImage();
    const invoice = (await requestInvoice(patient.token, radiologist.id, patient.imageId)).json().invoice;
    const list = await t.app.inject({
      method: 'GET',
      url: '/api/payment/invoices',
      headers: bearer(patient.token),
    });
    expect(list.json()).toEqual({ data: [invoice], next_cursor: null });
    const theirs = await t.app.inject({
      method: 'GET',
      url: '/api/payment/invoices',
      headers: bearer(other.token),
    });
    expect(theirs.json().data).toEqual([]);
    const cancel = (token: string) =>
      t.app.inject({
        method: 'POST',
        url: `/api/payment/invoices/${invoice.uid}/cancel`,
        headers: bearer(token),
      });
    expect((await cancel(other.token)).statusCode).toBe(404);
    expect((await pay(other.token, invoice.uid)).statusCode).toBe(404);
    expect((await cancel(patient.token)).json()).toEqual({ success: true });
    const paid = await pay(patient.token, invoice.uid);
    expect(paid.json()).toEqual({ success: false, msg: 'This invoice was cancelled.' });
    // A void invoice does not block a new request.
    expect((await requestInvoice(patient.token, radiologist.id, patient.imageId)).statusCode).toBe(201);
  });
});

describe('paying and what it grants', () => {
  it('grants the radiologist exactly the paid image, notifies both, and refuses a second payment', async () => {
    const patient = await patientWithImage();
    const url = await uploadFile(t.app, physician.token, await pngImage(30, 30));
    const second = (
      await t.app.inject({
        method: 'POST',
        url: '/api/user/upload-image',
        headers: bearer(physician.token),
        payload: { patient: patient.id, notes: 'other', url },
      })
    ).json().uid;
    const readImage = (token: string, uid: string) =>
      t.app.inject({ method: 'GET', url: `/api/image/${uid}`, headers: bearer(token) });
    const invoice = (await requestInvoice(patient.token, radiologist.id, patient.imageId)).json().invoice;

    expect((await readImage(radiologist.token, patient.imageId)).statusCode).toBe(404);
    const early = await t.app.inject({
      method: 'PATCH',
      url: `/api/image/${patient.imageId}`,
      headers: bearer(radiologist.token),
      payload: { note: 'early' },
    });
    expect(early.statusCode).toBe(409);
    expect(early.json().msg).toBe(
      'The patient has not paid for this image yet. Please wait for the patient to pay before updating the note.',
    );

    const paid = await pay(patient.token, invoice.uid);
    expect(paid.json().invoice).toMatchObject({ paid: true, status: 'paid' });
    expect((await pay(patient.token, invoice.uid)).json().msg).toBe('This invoice has already been paid.');
    const cancelPaid = await t.app.inject({
      method: 'POST',
      url: `/api/payment/invoices/${invoice.uid}/cancel`,
      headers: bearer(patient.token),
    });
    expect(cancelPaid.json()).toEqual({ success: false, msg: 'This invoice has already been paid.' });

    const radiologistNotes = await t.database.db
      .select()
      .from(notifications)
      .where(eq(notifications.userId, radiologist.id));
    expect(radiologistNotes.map((n) => [n.message, n.to])).toContainEqual([
      'Pia Payer has requested your opinion.',
      '/patients',
    ]);
    const patientNotes = await t.database.db
      .select()
      .from(notifications)
      .where(
        and(eq(notifications.userId, patient.id), eq(notifications.message, 'Your payment was received.')),
      );
    expect(patientNotes[0]?.to).toBe('/invoices');

    expect((await readImage(radiologist.token, patient.imageId)).statusCode).toBe(200);
    expect((await readImage(radiologist.token, second)).statusCode).toBe(404);
    expect((await readImage(otherRadiologist.token, patient.imageId)).statusCode).toBe(404);
    const list = await t.app.inject({
      method: 'GET',
      url: `/api/user/${patient.id}/images`,
      headers: bearer(radiologist.token),
    });
    expect(list.json().images.map((i: { uid: string }) => i.uid)).toEqual([patient.imageId]);
    const patients = await t.app.inject({
      method: 'GET',
      url: '/api/user/patients',
      headers: bearer(radiologist.token),
    });
    const mine = patients.json().patients.find((p: { uid: string }) => p.uid === patient.id);
    expect(mine).toMatchObject({
      image_count: 1,
      images: [expect.objectContaining({ uid: patient.imageId })],
    });
  });
});

describe('analysis notes and ratings', () => {
  it('follow the contract from first note to updated rating', async () => {
    const patient = await patientWithImage();
    const invoice = (await requestInvoice(patient.token, radiologist.id, patient.imageId)).json().invoice;
    const rate = (body: Record<string, unknown>, token = patient.token) =>
      t.app.inject({ method: 'POST', url: '/api/user/rate', headers: bearer(token), payload: body });

    expect((await rate({ uid: radiologist.id, rating: 4 }, physician.token)).statusCode).toBe(403);
    expect((await rate({ rating: 4 })).json().errors[0].msg).toBe('Please select a radiologist.');
    expect((await rate({ uid: radiologist.id, rating: 6 })).json().errors[0].msg).toBe(
      'Rating must be a whole number from 1 to 5.',
    );
    expect((await rate({ uid: radiologist.id, rating: 2.5 })).statusCode).toBe(400);
    expect((await rate({ uid: physician.id, rating: 4 })).statusCode).toBe(404);
    expect((await rate({ uid: radiologist.id, rating: 4 })).json().msg).toBe(
      'You can only rate a radiologist who has reviewed your images.',
    );

    await pay(patient.token, invoice.uid);
    // Paid but no note yet: still not allowed.
    expect((await rate({ uid: radiologist.id, rating: 4 })).statusCode).toBe(409);
    const patch = (note: string) =>
      t.app.inject({
        method: 'PATCH',
        url: `/api/image/${patient.imageId}`,
        headers: bearer(radiologist.token),
        payload: { note },
      });
    expect((await patch('Normal study.')).json()).toEqual({ success: true, note: 'Normal study.' });
    expect((await patch('Normal study, revised.')).statusCode).toBe(200);
    const messages = (
      await t.database.db.select().from(notifications).where(eq(notifications.userId, patient.id))
    ).map((n) => n.message);
    expect(messages).toEqual(
      expect.arrayContaining([
        'Your image has a new note.',
        "Don't forget to rate your radiologist.",
        'Your image note has been updated.',
      ]),
    );
    const toPhysician = await t.database.db
      .select()
      .from(notifications)
      .where(eq(notifications.userId, physician.id));
    expect(toPhysician.map((n) => n.message)).toContain(
      "A radiologist has added a note to your patient's image.",
    );
    const image = (
      await t.app.inject({
        method: 'GET',
        url: `/api/image/${patient.imageId}`,
        headers: bearer(patient.token),
      })
    ).json().image;
    expect(image.authors.map((a: { role: string; note: string }) => [a.role, a.note])).toEqual([
      ['PHYSICIAN', 'n'],
      ['RADIOLOGIST', 'Normal study, revised.'],
    ]);

    expect((await rate({ uid: radiologist.id, rating: 4 })).json()).toEqual({
      success: true,
      msg: 'Rating submitted successfully.',
    });
    expect((await rate({ uid: radiologist.id, rating: 4 })).json().msg).toBe('Same rating already exists.');
    expect((await rate({ uid: radiologist.id, rating: 5 })).json().msg).toBe('Rating updated successfully.');
    const listed = (await t.app.inject({ method: 'GET', url: '/api/user/radiologists' })).json().radiologists;
    expect(listed.find((r: { uid: string }) => r.uid === radiologist.id)).toMatchObject({
      average_rating: 5,
      rating_count: 1,
    });
    const meet = (await t.app.inject({ method: 'GET', url: '/api/user/meet-our-radiologists' })).json()
      .radiologists;
    expect(meet[0].uid).toBe(radiologist.id);
  });

  it('refuses ratings for a radiologist who opted out', async () => {
    const patient = await patientWithImage();
    const { users } = await import('../../db/schema/index.js');
    const optedOut = await person(() => createRadiologist(t.database.db, { lastName: 'Private' }));
    await t.database.db.update(users).set({ allowRatings: false }).where(eq(users.id, optedOut.id));
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/user/rate',
      headers: bearer(patient.token),
      payload: { uid: optedOut.id, rating: 3 },
    });
    expect(response.json()).toEqual({ success: false, msg: 'This radiologist is not accepting ratings.' });
  });
});
