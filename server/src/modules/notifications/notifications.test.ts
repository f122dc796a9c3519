import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/test-app.js';
import { bearer, createPatient, signIn } from '../../../test/factories.js';
import { notify } from './notifications.service.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

async function account() {
  const user = await createPatient(t.database.db);
  return { id: user.id, token: (await signIn(t.app, user.email)).token };
}

function poll(token: string | undefined, etag?: string) {
  return t.app.inject({
    method: 'GET',
    url: '/api/notification/polling',
    headers: { ...(token ? bearer(token) : {}), ...(etag ? { 'if-none-match': etag } : {}) },
  });
}

describe('notifications', () => {
  it('need a signed-in caller', async () => {
    expect((await poll(undefined)).statusCode).toBe(401);
    expect(
      (await t.app.inject({ method: 'PUT', url: '/api/notification/read', payload: { read: [] } }))
        .statusCode,
    ).toBe(401);
    expect((await t.app.inject({ method: 'GET', url: '/api/notification/unread-count' })).statusCode).toBe(
      401,
    );
  });

  it('answer 204 when there are none, then list newest first with an ETag and 304 while nothing changes', async () => {
    const me = await account();
    const empty = await poll(me.token);
    expect(empty.statusCode).toBe(204);
    expect(empty.body).toBe('');

    await notify(t.database.db, { userId: me.id, message: 'First.', to: '/dashboard' });
    await notify(t.database.db, { userId: me.id, message: 'Second.', to: null });
    const listed = await poll(me.token, empty.headers.etag);
    expect(listed.statusCode).toBe(200);
    expect(listed.json()).toEqual([
      { uid: expect.any(String), message: 'Second.', to: null, createdAt: expect.any(String), read: 0 },
      {
        uid: expect.any(String),
        message: 'First.',
        to: '/dashboard',
        createdAt: expect.any(String),
        read: 0,
      },
    ]);
    const etag = listed.headers.etag as string;
    const idle = await poll(me.token, etag);
    expect(idle.statusCode).toBe(304);
    expect(idle.body).toBe('');
    expect(idle.headers['content-length']).toBeUndefined();

    const unread = await t.app.inject({
      method: 'GET',
      url: '/api/notification/unread-count',
      headers: bearer(me.token),
    });
    expect(unread.json()).toEqual({ unread: 2 });

    const first = listed.json()[1].uid;
    const marked = await t.app.inject({
      method: 'PUT',
      url: '/api/notification/read',
      headers: bearer(me.token),
      payload: { read: [first] },
    });
    expect(marked.json()).toEqual({ success: true, read: [first] });
    const after = await poll(me.token, etag);
    expect(after.statusCode).toBe(200);
    expect(after.json()[1].read).toBe(1);
  });

  it('mark only the caller’s own notifications', async () => {
    const me = await account();
    const other = await account();
    await notify(t.database.db, { userId: other.id, message: 'Theirs.', to: null });
    const theirs = (await poll(other.token)).json()[0].uid;
    const response = await t.app.inject({
      method: 'PUT',
      url: '/api/notification/read',
      headers: bearer(me.token),
      payload: { read: [theirs] },
    });
    expect(response.json()).toEqual({ success: true, read: [] });
    expect((await poll(other.token)).json()[0].read).toBe(0);
  });

  it('refuse a malformed list with 400', async () => {
    const me = await account();
    const response = await t.app.inject({
      method: 'PUT',
      url: '/api/notification/read',
      headers: bearer(me.token),
      payload: { read: ['x'] },
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().errors[0].msg).toBe('Each notification id must be a uid.');
  });

  it('return at most 100', async () => {
    const me = await account();
    await notify(
      t.database.db,
      ...Array.from({ length: 105 }, (_v, i) => ({ userId: me.id, message: `n${i}`, to: null })),
    );
    expect((await poll(me.token)).json()).toHaveLength(100);
  });
});
