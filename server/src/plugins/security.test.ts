import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerSecurityHeaders } from './security.js';

let app: FastifyInstance;
beforeAll(async () => {
  app = Fastify();
  registerSecurityHeaders(app);
  app.get('/imageview', (_request, reply) =>
    reply.type('text/html').send('<!doctype html><title>Viewer</title>'),
  );
  app.get('/assets/decodeImageFrameWorker-abc123.js', (_request, reply) =>
    reply.type('text/javascript').send('self.onmessage = () => undefined;'),
  );
  await app.ready();
});
afterAll(() => app.close());

/** The policy's directives by name, each with its sources. */
async function policyOf(url: string): Promise<Map<string, string[]>> {
  const response = await app.inject({ method: 'GET', url });
  const header = String(response.headers['content-security-policy']);
  return new Map(
    header
      .split(';')
      .map((directive) => directive.trim().split(/\s+/))
      .filter(([name]) => name)
      .map(([name, ...sources]) => [name!, sources]),
  );
}

describe('the content security policy of pages', () => {
  it('lets scripts compile WebAssembly (the viewer’s decoders) and nothing more: no eval, no inline scripts', async () => {
    const scriptSrc = (await policyOf('/imageview')).get('script-src');
    expect(scriptSrc).toEqual(["'self'", "'wasm-unsafe-eval'"]);
    expect(scriptSrc).not.toContain("'unsafe-eval'");
    expect(scriptSrc).not.toContain("'unsafe-inline'");
  });

  it('gives the decoder workers’ scripts the same policy, so they may compile their WebAssembly too', async () => {
    const policy = await policyOf('/assets/decodeImageFrameWorker-abc123.js');
    expect(policy.get('script-src')).toEqual(["'self'", "'wasm-unsafe-eval'"]);
    // Workers fall back to script-src: from our own origin only, as the build serves them.
    expect(policy.has('worker-src')).toBe(false);
    expect(policy.has('child-src')).toBe(false);
  });
});

describe('the headers of pages', () => {
  it('are the ones helmet 8 sent with the archive’s options, each once (helmet is no longer called)', async () => {
    const response = await app.inject({ method: 'GET', url: '/imageview' });
    const notSecurity = new Set(['content-type', 'content-length', 'date', 'connection']);
    const security = Object.fromEntries(
      Object.entries(response.headers).filter(([name]) => !notSecurity.has(name)),
    );
    expect(security).toEqual({
      'content-security-policy':
        "default-src 'self';script-src 'self' 'wasm-unsafe-eval';style-src 'self' 'unsafe-inline';" +
        "img-src 'self' data: blob:;font-src 'self' data:;connect-src 'self';object-src 'none';" +
        "base-uri 'self';form-action 'self';frame-ancestors 'none'",
      'cross-origin-opener-policy': 'same-origin',
      'cross-origin-resource-policy': 'same-origin',
      'origin-agent-cluster': '?1',
      'referrer-policy': 'no-referrer',
      'x-content-type-options': 'nosniff',
      'x-dns-prefetch-control': 'off',
      'x-download-options': 'noopen',
      'x-frame-options': 'SAMEORIGIN',
      'x-permitted-cross-domain-policies': 'none',
      'x-xss-protection': '0',
    });
  });
});
