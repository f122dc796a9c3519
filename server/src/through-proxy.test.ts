import http from 'node:http';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { injectOverHttp, trustsLoopbackProxy } from '../test/http-inject.js';
import { createTestApp, throughProxy, type TestApp } from '../test/test-app.js';

/**
 * The harness of proxy mode (TEST_THROUGH_PROXY=1, test/proxied-pair.ts): `inject` over real HTTP
 * keeps light-my-request's request and answer shapes, and an app's requests reach both instances.
 */

interface Echo {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

describe('inject over HTTP', () => {
  let server: http.Server;
  let base = '';
  const agent = new http.Agent({ keepAlive: true });
  beforeAll(async () => {
    server = http.createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        const echo: Echo = {
          method: request.method!,
          url: request.url!,
          headers: request.headers,
          body: Buffer.concat(chunks).toString(),
        };
        response.setHeader('set-cookie', [
          'ra_session=a%20b; Path=/api/auth; HttpOnly; SameSite=Strict; Max-Age=60',
          'other=1',
        ]);
        response.setHeader('content-type', 'application/json');
        response.end(JSON.stringify(echo));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  });
  afterAll(async () => {
    agent.destroy();
    await new Promise((resolve) => server.close(resolve));
  });

  it('sends objects as JSON, strings and bytes as they are, and streams piped', async () => {
    const inject = injectOverHttp(base, 0, agent);
    const object = await inject({ method: 'post', url: '/x', payload: { a: 1 } });
    expect(object.json<Echo>()).toMatchObject({
      method: 'POST',
      body: '{"a":1}',
      headers: { 'content-type': 'application/json', 'content-length': '7', 'user-agent': 'lightMyRequest' },
    });
    const text = await inject({
      method: 'PUT',
      url: '/x',
      body: 'plain',
      headers: { 'content-type': 'text/plain' },
    });
    expect(text.json<Echo>()).toMatchObject({ body: 'plain', headers: { 'content-type': 'text/plain' } });
    const bytes = await inject({ method: 'POST', url: '/x', payload: Buffer.from([0x68, 0x69]) });
    expect(bytes.json<Echo>().body).toBe('hi');
    const streamed = await inject({
      method: 'POST',
      url: '/x',
      payload: Readable.from([Buffer.from('st'), Buffer.from('ream')]),
    });
    expect(streamed.json<Echo>()).toMatchObject({
      body: 'stream',
      headers: { 'transfer-encoding': 'chunked' },
    });
  });

  it('resolves the URL as light-my-request does, merging the query', async () => {
    const inject = injectOverHttp(base, 0, agent);
    const answer = await inject({ url: '/a/../b?x=1&y=2', query: { y: '3', z: ['4', '5'] } });
    expect(answer.json<Echo>().url).toBe('/b?x=1&y=3&z=4&z=5');
    const absolute = await inject({ url: 'http://localhost:3000/c?d=1' });
    expect(absolute.json<Echo>()).toMatchObject({ url: '/c?d=1', headers: { host: 'localhost:3000' } });
  });

  it('answers with status, headers, payload, raw bytes and parsed cookies', async () => {
    const answer = await injectOverHttp(base, 0, agent)({ url: '/', cookies: { c: 'd e' } });
    expect(answer.statusCode).toBe(200);
    expect(answer.headers['content-type']).toBe('application/json');
    expect(answer.body).toBe(answer.payload);
    expect(answer.rawPayload.toString()).toBe(answer.payload);
    expect(answer.json<Echo>().headers.cookie).toBe('c=d%20e');
    expect(answer.cookies).toEqual([
      { name: 'ra_session', value: 'a b', path: '/api/auth', httpOnly: true, sameSite: 'Strict', maxAge: 60 },
      { name: 'other', value: '1' },
    ]);
  });

  it('passes remoteAddress on as X-Forwarded-For only to an app that believes a loopback proxy', async () => {
    const trusting = injectOverHttp(base, ['127.0.0.1'], agent);
    const forwarded = await trusting({
      url: '/',
      headers: { 'x-forwarded-for': '7.7.7.7' },
      remoteAddress: '192.0.2.5',
    });
    expect(forwarded.json<Echo>().headers['x-forwarded-for']).toBe('7.7.7.7, 192.0.2.5');
    expect(() => injectOverHttp(base, 0, agent)({ url: '/', remoteAddress: '192.0.2.5' })).toThrow(
      /TRUST_PROXY/,
    );
    expect(trustsLoopbackProxy(0)).toBe(false);
    expect(trustsLoopbackProxy(1)).toBe(true);
    expect(trustsLoopbackProxy(['10.0.0.0/8'])).toBe(false);
    expect(trustsLoopbackProxy(['10.0.0.0/8', '127.0.0.0/8'])).toBe(true);
    expect(trustsLoopbackProxy(['loopback'])).toBe(true);
  });
});

describe.runIf(throughProxy)('proxy mode (TEST_THROUGH_PROXY=1)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('sends an app’s requests round robin to its two instances', async () => {
    expect(t.instances).toHaveLength(2);
    const served = [0, 0];
    t.instances.forEach((instance, index) => {
      instance.server.on('request', (request: http.IncomingMessage) => {
        if (request.url === '/api/user/me') {
          served[index]! += 1;
        }
      });
    });
    for (let i = 0; i < 6; i++) {
      expect((await t.app.inject({ method: 'GET', url: '/api/user/me' })).statusCode).toBe(401);
    }
    expect(served).toEqual([3, 3]);
  });

  it('gives a test that listens itself the proxy’s address', async () => {
    const base = await t.app.listen({ host: '127.0.0.1', port: 0 });
    expect(base).not.toBe(`http://127.0.0.1:${(t.app.server.address() as { port: number }).port}`);
    expect((await fetch(`${base}/api/health`)).status).toBe(200);
  });
});
