import { load, type LoadRow } from './lib/load.js';

/** The foundation's figures: reference data, an authenticated read and sign-in. */
export async function identityRows(bareBase: string, base: string, token: string): Promise<LoadRow[]> {
  const credentials = JSON.stringify({ email: 'patient@example.com', password: 'demo-password' });
  return [
    await load('bare Fastify route', { url: `${bareBase}/bare` }),
    await load('GET /api/hospital/hospitals', { url: `${base}/api/hospital/hospitals` }),
    await load('GET /api/user/me (bearer)', {
      url: `${base}/api/user/me`,
      headers: { authorization: `Bearer ${token}` },
    }),
    await load('POST /api/auth/signin', {
      url: `${base}/api/auth/signin`,
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: credentials,
    }),
  ];
}
