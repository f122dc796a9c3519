import http from 'node:http';
import { expect, test } from '@playwright/test';
import sharp from 'sharp';
import { imageResponseSchema } from '@ra/shared';
import type { Cluster } from '../../cluster/lib/cluster.js';
import { bytesReceivedOn, ownCluster, storedParts } from '../fixtures/cluster.js';
import { DEMO_PASSWORD } from '../fixtures/accounts.js';

/*
 * One instance dies mid-upload: the client, which knows only the proxy, asks the upload's offset
 * again, is answered by the other instance, sends the rest there, and the image is filed whole.
 */

let cluster: Cluster;
test.beforeAll(async () => {
  test.setTimeout(120_000);
  cluster = await ownCluster();
});
test.afterAll(async () => {
  await cluster?.stop();
});

async function api(method: string, path: string, token: string | null, body?: unknown, headers = {}) {
  const response = await fetch(`${cluster.base}${path}`, {
    method,
    headers: {
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      ...headers,
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return response;
}

async function signIn(email: string): Promise<string> {
  const response = await api('POST', '/api/auth/signin', null, { email, password: DEMO_PASSWORD });
  expect(response.status).toBe(200);
  return ((await response.json()) as { token: string }).token;
}

/**
 * A PATCH through the proxy that sends `first`, then waits for `whilePaused` before sending
 * `rest`; settles with the status, or with the error when the connection is cut.
 */
function pausedPatch(
  url: string,
  token: string,
  first: Buffer,
  rest: Buffer,
  whilePaused: () => Promise<void>,
) {
  return new Promise<number | Error>((resolve) => {
    const request = http.request(url, {
      method: 'PATCH',
      headers: {
        authorization: `Bearer ${token}`,
        'tus-resumable': '1.0.0',
        'upload-offset': '0',
        'content-type': 'application/offset+octet-stream',
        'content-length': String(first.length + rest.length),
      },
    });
    request.on('response', (response) => {
      response.resume();
      resolve(response.statusCode ?? 0);
    });
    request.on('error', (err) => resolve(err));
    request.write(first, () => {
      void whilePaused().then(() => request.end(rest));
    });
  });
}

test('an instance killed mid-upload: the tus upload resumes through the other and the image is whole', async () => {
  test.setTimeout(120_000);
  const physician = await signIn('physician@example.com');
  const patient = await signIn('patient@example.com');
  const patientUid = ((await (await api('GET', '/api/user/me', patient)).json()) as { uid: string }).uid;
  // A noisy PNG of about 20 MB: big enough to stop half-way.
  const png = await sharp({
    create: {
      width: 2600,
      height: 2600,
      channels: 3,
      background: '#345',
      noise: { type: 'gaussian', mean: 128, sigma: 40 },
    },
  })
    .png({ compressionLevel: 1 })
    .toBuffer();
  const created = await api('POST', '/api/uploads', physician, undefined, {
    'tus-resumable': '1.0.0',
    'upload-length': String(png.length),
    'upload-metadata': `purpose ${Buffer.from('image').toString('base64')},filename ${Buffer.from('noise.png').toString('base64')}`,
  });
  expect(created.status).toBe(201);
  const location = new URL(created.headers.get('location')!, cluster.base).toString();

  const half = Math.floor(png.length / 2);
  let killed = '';
  const outcome = await pausedPatch(
    location,
    physician,
    png.subarray(0, half),
    png.subarray(half),
    async () => {
      // The instance holding the upload is the one whose connection from the proxy received the half.
      await expect
        .poll(async () => {
          for (const one of cluster.instances) {
            if ((await bytesReceivedOn(one.port)).some((bytes) => bytes >= half)) {
              killed = one.name;
              return one.name;
            }
          }
          return '';
        })
        .not.toBe('');
      // In a bucket, bytes are kept in whole parts: the kill waits for the first to be stored,
      // so that there is something to resume from.
      await expect.poll(() => storedParts(cluster)).toBeGreaterThan(0);
      await cluster.instances.find((one) => one.name === killed)!.kill();
    },
  );
  // The PATCH did not finish: the connection was cut, or the proxy answered for the dead instance.
  expect(outcome === 204).toBe(false);

  // The client asks where to resume: the surviving instance answers with what reached the disk.
  const head = await api('HEAD', new URL(location).pathname, physician, undefined, {
    'tus-resumable': '1.0.0',
  });
  expect(head.status).toBe(200);
  const offset = Number(head.headers.get('upload-offset'));
  expect(offset).toBeGreaterThan(0);
  expect(offset).toBeLessThanOrEqual(half);
  const resumed = await fetch(location, {
    method: 'PATCH',
    headers: {
      authorization: `Bearer ${physician}`,
      'tus-resumable': '1.0.0',
      'upload-offset': String(offset),
      'content-type': 'application/offset+octet-stream',
    },
    body: new Uint8Array(png.subarray(offset)),
  });
  expect(resumed.status).toBe(204);
  expect(Number(resumed.headers.get('upload-offset'))).toBe(png.length);

  const filed = await api('POST', '/api/user/upload-image', physician, {
    patient: patientUid,
    notes: '',
    url: location,
  });
  expect(filed.status, await filed.clone().text()).toBe(201);
  const { uid } = (await filed.json()) as { uid: string };

  // The dead instance comes back and serves the same image as the other.
  await cluster.instances.find((one) => one.name === killed)!.start();
  for (const one of cluster.instances) {
    const answer = await fetch(`${one.base}/api/image/${uid}`, {
      headers: { authorization: `Bearer ${patient}` },
    });
    const { image } = imageResponseSchema.parse(await answer.json());
    expect([image.width, image.height]).toEqual([2600, 2600]);
    const file = await fetch(new URL(image.url, one.base));
    expect(file.status).toBe(200);
    const served = Buffer.from(await file.arrayBuffer());
    const pixels = await sharp(served).raw().toBuffer();
    expect(pixels.equals(await sharp(png).raw().toBuffer())).toBe(true);
  }
});
