import { spawn, type ChildProcess } from 'node:child_process';
import net from 'node:net';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..', '..');
const children: ChildProcess[] = [];

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

/** Starts a server script on a free port and waits until `readyPath` answers; returns its base URL. */
export async function startServer(
  script: string,
  readyPath: string,
  env: Record<string, string>,
): Promise<string> {
  const port = await freePort();
  const child = spawn(process.execPath, ['--import', 'tsx', script], {
    cwd: root,
    env: { ...process.env, ...env, PORT: String(port) },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  children.push(child);
  const base = `http://127.0.0.1:${port}`;
  for (let attempt = 0; attempt < 600; attempt += 1) {
    if (child.exitCode !== null) {
      throw new Error(`${script} exited with ${child.exitCode}`);
    }
    const isUp = await fetch(`${base}${readyPath}`).then(
      (response) => response.ok,
      () => false,
    );
    if (isUp) {
      return base;
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`${script} did not start`);
}

export async function stopServers(): Promise<void> {
  for (const child of children) {
    child.kill('SIGTERM');
  }
  await new Promise((resolve) => setTimeout(resolve, 500));
}

/** The bare Fastify ceiling and the production server on a fresh embedded database with demo data. */
export async function startServers(dataDir: string): Promise<{ bareBase: string; base: string }> {
  const bareBase = await startServer('bench/bare-server.ts', '/bare', {});
  const base = await startServer('server/src/main.ts', '/api/health', {
    NODE_ENV: 'production',
    DATA_DIR: dataDir,
    SEED_DEMO: '1',
    LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'info',
    // The bench signs in thousands of times from one IP; the limits would turn that into 429s.
    AUTH_RATE_LIMIT_PER_IP: '100000000',
    AUTH_RATE_LIMIT_PER_EMAIL: '100000000',
  });
  return { bareBase, base };
}
