import crypto from 'node:crypto';
import type autocannon from 'autocannon';
import sharp from 'sharp';
import { Api } from './lib/api.js';
import { confirmEmails } from './lib/email-confirmation.js';
import { DURATION_SECONDS, load, type LoadRow } from './lib/load.js';

const POLLING_CLIENTS = Number(process.env.BENCH_POLLING_CLIENTS ?? 500);

/** Every bench patient has these details; a physician linking one must give them. */
const PATIENT_DETAILS = { first_name: 'Bench', last_name: 'Patient', dob: '1990-01-01' };
const PASSWORD = 'bench password';

/** Runs `task` for each item, `concurrency` at a time. */
async function eachLimited<T>(items: T[], concurrency: number, task: (item: T) => Promise<void>) {
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const item = items[next]!;
      next += 1;
      await task(item);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
}

/** Signs up `count` patients, confirms their addresses through the emailed links, and signs them in. */
async function patients(base: string, dataDir: string, count: number): Promise<Api[]> {
  const emails = Array.from(
    { length: count },
    () => `bench-${crypto.randomUUID().slice(0, 12)}@example.test`,
  );
  await eachLimited(emails, 4, async (email) => {
    await new Api(base).json('POST', '/api/auth/signup', {
      role: 'PATIENT',
      ...PATIENT_DETAILS,
      email,
      password: PASSWORD,
    });
  });
  await confirmEmails(base, dataDir, emails);
  const apis: Api[] = [];
  await eachLimited(emails, 4, async (email) => {
    const api = new Api(base);
    await api.signIn(email, PASSWORD);
    apis.push(api);
  });
  return apis;
}

/** 500 signed-in clients polling notifications, with a matching If-None-Match (304) and without. */
export async function pollingRows(base: string, dataDir: string): Promise<LoadRow[]> {
  const clients = await patients(base, dataDir, POLLING_CLIENTS);
  const tags = await Promise.all(
    clients.map(async (client) => {
      const response = await fetch(`${base}/api/notification/polling`, {
        headers: { authorization: client.authorization },
      });
      return response.headers.get('etag') ?? '';
    }),
  );
  let turn = 0;
  const options = (withTag: boolean): autocannon.Options => ({
    url: `${base}/api/notification/polling`,
    connections: POLLING_CLIENTS,
    requests: [
      {
        setupRequest: (request: autocannon.Request) => {
          const index = turn++ % clients.length;
          request.headers = {
            authorization: clients[index]!.authorization,
            ...(withTag ? { 'if-none-match': tags[index]! } : {}),
          };
          return request;
        },
      },
    ],
  });
  return [
    await load(
      `GET /api/notification/polling, ${POLLING_CLIENTS} clients, If-None-Match (304)`,
      options(true),
      304,
    ),
    await load(`GET /api/notification/polling, ${POLLING_CLIENTS} clients, no ETag (204)`, options(false)),
  ];
}

/** Second-opinion requests per second with the sandbox: each worker requests, then cancels, again and again. */
export async function invoiceThroughput(
  base: string,
  dataDir: string,
  physician: Api,
  radiologistUid: string,
) {
  const workers = await patients(base, dataDir, 10);
  const png = await sharp({ create: { width: 32, height: 32, channels: 3, background: '#222' } })
    .png()
    .toBuffer();
  const images: string[] = [];
  for (const patient of workers) {
    const me = await patient.json<{ uid: string; email: string }>('GET', '/api/user/me');
    await physician.json('POST', '/api/auth/add-patient', { email: me.email, ...PATIENT_DETAILS });
    const url = await physician.upload(png, png.length);
    images.push(
      (
        await physician.json<{ uid: string }>('POST', '/api/user/upload-image', {
          patient: me.uid,
          notes: 'x',
          url,
        })
      ).uid,
    );
  }
  const latencies: number[] = [];
  const until = Date.now() + DURATION_SECONDS * 1000;
  await Promise.all(
    workers.map(async (patient, index) => {
      while (Date.now() < until) {
        const start = performance.now();
        const { invoice } = await patient.json<{ invoice: { uid: string } }>(
          'POST',
          `/api/payment/${radiologistUid}/invoice`,
          {
            image: images[index],
          },
        );
        latencies.push(performance.now() - start);
        await patient.json('POST', `/api/payment/invoices/${invoice.uid}/cancel`);
      }
    }),
  );
  latencies.sort((a, b) => a - b);
  return {
    perSecond: latencies.length / DURATION_SECONDS,
    p99: latencies[Math.floor(latencies.length * 0.99)] ?? 0,
  };
}
