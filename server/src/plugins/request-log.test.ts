import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../app.js';
import { createTestApp, type TestApp } from '../../test/test-app.js';

let t: TestApp;
let logged: FastifyInstance;
const lines: { msg: string; reqId?: string; req?: { method: string }; res?: { statusCode: number } }[] = [];

beforeAll(async () => {
  t = await createTestApp();
  logged = await buildApp({
    config: t.config,
    database: t.database,
    logger: { level: 'info', stream: { write: (line: string) => lines.push(JSON.parse(line)) } },
  });
  await logged.ready();
});
afterAll(async () => {
  await logged.close();
  await t.close();
});

describe('request logging', () => {
  it('writes one line per answered request, with its method and status', async () => {
    const response = await logged.inject({ method: 'GET', url: '/api/hospital/hospitals' });
    expect(response.statusCode).toBe(200);
    const id = response.headers['x-request-id'];
    const own = lines.filter((line) => line.reqId === id);
    expect(own).toHaveLength(1);
    expect(own[0]).toMatchObject({
      msg: 'request completed',
      req: { method: 'GET' },
      res: { statusCode: 200 },
    });
  });
});
