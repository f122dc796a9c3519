/**
 * npm run bench: starts the production server on a fresh embedded database and a bare Fastify
 * server, loads each endpoint with autocannon, and prints one table of figures.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';

const root = path.resolve(import.meta.dirname, '..');
const DURATION_SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

/** Starts a server script on a free port and waits until `readyPath` answers. */
async function start(script: string, readyPath: string, env: Record<string, string>) {
  const port = await freePort();
  const child = spawn(process.execPath, ['--import', 'tsx', script], {
    cwd: root,
    env: { ...process.env, ...env, PORT: String(port) },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  children.push(child);
  for (let attempt = 0; attempt < 600; attempt += 1) {
    if (child.exitCode !== null) {
      throw new Error(`${script} exited with ${child.exitCode}`);
    }
    const ok = await fetch(`http://127.0.0.1:${port}${readyPath}`).then(
      (response) => response.ok,
      () => false,
    );
    if (ok) {
      return port;
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`${script} did not start`);
}

async function load(name: string, options: autocannon.Options) {
  const result = await autocannon({ connections: CONNECTIONS, duration: DURATION_SECONDS, ...options });
  const failures = result.non2xx + result.errors + result.timeouts;
  if (failures > 0) {
    throw new Error(
      `${name}: ${failures} failed requests (non-2xx ${result.non2xx}, errors ${result.errors})`,
    );
  }
  return { name, rps: result.requests.average, p99: result.latency.p99 };
}

const children: ChildProcess[] = [];
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ra-bench-'));
try {
  const barePort = await start('bench/bare-server.ts', '/bare', {});
  const serverPort = await start('server/src/main.ts', '/api/health', {
    NODE_ENV: 'production',
    DATA_DIR: dataDir,
    SEED_DEMO: '1',
    LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'info',
    // The bench signs in thousands of times from one IP; the limits would turn that into 429s.
    AUTH_RATE_LIMIT_PER_IP: '100000000',
    AUTH_RATE_LIMIT_PER_EMAIL: '100000000',
  });
  const base = `http://127.0.0.1:${serverPort}`;

  const credentials = JSON.stringify({ email: 'patient@example.com', password: 'demo-password' });
  const signin = await fetch(`${base}/api/auth/signin`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: credentials,
  });
  const { token } = (await signin.json()) as { token: string };

  const rows = [
    await load('bare Fastify route', { url: `http://127.0.0.1:${barePort}/bare` }),
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

  const ceiling = rows[0]!.rps;
  console.log(
    `\n${DURATION_SECONDS} s per row, ${CONNECTIONS} connections, ${os.cpus().length} cores, Node ${process.version}\n`,
  );
  console.log('| endpoint | requests/s | p99 latency (ms) | share of bare route |');
  console.log('|---|---:|---:|---:|');
  for (const row of rows) {
    const share = `${((row.rps / ceiling) * 100).toFixed(1)} %`;
    console.log(`| ${row.name} | ${row.rps.toFixed(0)} | ${row.p99.toFixed(1)} | ${share} |`);
  }
} finally {
  for (const child of children) {
    child.kill('SIGTERM');
  }
  await new Promise((resolve) => setTimeout(resolve, 500));
  fs.rmSync(dataDir, { recursive: true, force: true });
}
