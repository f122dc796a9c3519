import { expect, test } from '@playwright/test';
import sharp from 'sharp';
import type { Cluster } from '../../cluster/lib/cluster.js';
import { ownCluster } from '../fixtures/cluster.js';
import { DEMO_PASSWORD } from '../fixtures/accounts.js';

/*
 * Two instances behave as one: what one changes, the other answers at once (its caches hear of
 * the change), and a limit counts every request, whichever instance took it.
 */

/** Tries per address a minute before the credential routes answer 429 (docs/security.md §8). */
const PER_EMAIL = 4;
let cluster: Cluster;
test.beforeAll(async () => {
  test.setTimeout(120_000);
  cluster = await ownCluster({
    AUTH_RATE_LIMIT_PER_EMAIL: String(PER_EMAIL),
    AUTH_RATE_LIMIT_PER_IP: '1000',
  });
});
test.afterAll(async () => {
  await cluster?.stop();
});

function call(
  base: string,
  method: string,
  path: string,
  token: string | null,
  body?: unknown,
  headers = {},
) {
  return fetch(`${base}${path}`, {
    method,
    headers: {
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      ...headers,
    },
    body:
      body === undefined
        ? undefined
        : body instanceof Uint8Array
          ? new Uint8Array(body)
          : JSON.stringify(body),
  });
}

async function signIn(base: string, email: string): Promise<string> {
  const response = await call(base, 'POST', '/api/auth/signin', null, { email, password: DEMO_PASSWORD });
  expect(response.status).toBe(200);
  return ((await response.json()) as { token: string }).token;
}

test('a change made through one instance is what the other answers at once', async () => {
  const [one, other] = cluster.instances.map((instance) => instance.base) as [string, string];
  const physician = await signIn(cluster.base, 'physician@example.com');
  const patient = await signIn(cluster.base, 'patient@example.com');
  const patientUid = (
    (await (await call(cluster.base, 'GET', '/api/user/me', patient)).json()) as { uid: string }
  ).uid;
  const listOn = async (base: string) =>
    (
      (await (await call(base, 'GET', `/api/user/${patientUid}/images`, physician)).json()) as {
        images: { uid: string }[];
      }
    ).images.map((image) => image.uid);
  const unreadOn = async (base: string) =>
    ((await (await call(base, 'GET', '/api/notification/unread-count', patient)).json()) as { count: number })
      .count;

  // The other instance has the list and the count in its caches, twice asked.
  const before = await listOn(other);
  expect(await listOn(other)).toEqual(before);
  const unreadBefore = await unreadOn(other);
  expect(await unreadOn(other)).toBe(unreadBefore);

  // One instance files a new image for the patient.
  const png = await sharp({ create: { width: 64, height: 48, channels: 3, background: '#468' } })
    .png()
    .toBuffer();
  const created = await call(one, 'POST', '/api/uploads', physician, undefined, {
    'tus-resumable': '1.0.0',
    'upload-length': String(png.length),
    'upload-metadata': `purpose ${Buffer.from('image').toString('base64')}`,
  });
  const location = new URL(created.headers.get('location')!, one).pathname;
  const patched = await call(one, 'PATCH', location, physician, new Uint8Array(png), {
    'tus-resumable': '1.0.0',
    'upload-offset': '0',
    'content-type': 'application/offset+octet-stream',
  });
  expect(patched.status).toBe(204);
  const filed = await call(one, 'POST', '/api/user/upload-image', physician, {
    patient: patientUid,
    notes: '',
    url: location,
  });
  expect(filed.status).toBe(201);
  const { uid } = (await filed.json()) as { uid: string };

  // The very next answers of the other instance have it: the list and the patient's unread count.
  expect(await listOn(other)).toEqual([uid, ...before]);
  expect(await unreadOn(other)).toBeGreaterThan(unreadBefore);
});

test('a limit counts the requests of both instances', async () => {
  const attempt = (base: string) =>
    call(base, 'POST', '/api/auth/signin', null, {
      email: 'radiologist@example.com',
      password: 'not the password',
    });
  const statuses: number[] = [];
  for (let index = 0; index < PER_EMAIL; index += 1) {
    statuses.push((await attempt(cluster.base)).status);
  }
  // Through the proxy the tries went to both instances; all of them count.
  expect(statuses).toEqual(new Array(PER_EMAIL).fill(401));
  for (const instance of cluster.instances) {
    expect((await attempt(instance.base)).status).toBe(429);
  }
  expect((await attempt(cluster.base)).status).toBe(429);
});
