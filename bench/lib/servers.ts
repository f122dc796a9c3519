import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { freePort } from '../../server/test/free-port.js';
import { SERVER_NODE_FLAGS } from '../../server/src/node-flags.js';

const root = path.resolve(import.meta.dirname, '..', '..');
const children = new Map<string, ChildProcess>();
/** Time for a new server's start-up work (seeding, job queue) to finish before it is measured. */
const SETTLE_MS = 3_000;

/** The compiled app server, as `npm start` runs it; `npm run bench` builds it first. */
const APP_SERVER = 'server/dist/main.js';
/** The least a STOW-RS request costs through the server's parts (bench/stow-floor-server.ts). */
const STOW_FLOOR_SERVER = 'bench/stow-floor-server.ts';

/**
 * How Node runs a script: the app server compiled, with the V8 flags `npm start` gives it
 * (server/package.json); the bench's own TypeScript servers through tsx.
 */
function nodeArgs(script: string): string[] {
  if (script === APP_SERVER) {
    return [...SERVER_NODE_FLAGS, script];
  }
  // The STOW-RS floor runs the app server's own parts, so with its flags too.
  return ['--import', 'tsx', ...(script === STOW_FLOOR_SERVER ? SERVER_NODE_FLAGS : []), script];
}

/**
 * Starts a server script on a free port and waits until `readyPath` answers and its start-up work
 * has settled; returns its base URL.
 */
export async function startServer(
  script: string,
  readyPath: string,
  env: Record<string, string>,
): Promise<string> {
  const port = await freePort();
  // BENCH_PROFILE_DIR: the app server writes a V8 CPU profile there when it stops.
  const profile =
    process.env.BENCH_PROFILE_DIR && script.startsWith('server/')
      ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_PROFILE_DIR}`]
      : [];
  const child = spawn(process.execPath, [...profile, ...nodeArgs(script)], {
    cwd: root,
    env: { ...process.env, ...env, PORT: String(port) },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const base = `http://127.0.0.1:${port}`;
  children.set(base, child);
  for (let attempt = 0; attempt < 600; attempt += 1) {
    if (child.exitCode !== null) {
      throw new Error(`${script} exited with ${child.exitCode}`);
    }
    const isUp = await fetch(`${base}${readyPath}`).then(
      (response) => response.ok,
      () => false,
    );
    if (isUp) {
      await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
      return base;
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`${script} did not start`);
}

/** The process id of a server this bench started, to read its memory from /proc. */
export function serverPid(base: string): number {
  const pid = children.get(base)?.pid;
  if (pid === undefined) {
    throw new Error(`no server at ${base}`);
  }
  return pid;
}

/** Stops one server and waits for it to exit (its CPU profile, if any, is then written). */
export async function stopServer(base: string): Promise<void> {
  const child = children.get(base);
  children.delete(base);
  if (child && child.exitCode === null) {
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await exited;
  }
}

export async function stopServers(): Promise<void> {
  await Promise.all([...children.keys()].map(stopServer));
}

/** The production server with the demo data: on embedded PGlite in `dataDir`, or on `env.DATABASE_URL`. */
export function startAppServer(dataDir: string, env: Record<string, string> = {}): Promise<string> {
  return startServer(APP_SERVER, '/api/health', {
    ...env,
    NODE_ENV: 'production',
    DATA_DIR: dataDir,
    SEED_DEMO: '1',
    LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'info',
    // The bench signs in thousands of times from one IP; the limits would turn that into 429s.
    AUTH_RATE_LIMIT_PER_IP: '100000000',
    AUTH_RATE_LIMIT_PER_EMAIL: '100000000',
  });
}

/** The ceiling: a Fastify route that does nothing, on this machine. */
export function startBareServer(): Promise<string> {
  return startServer('bench/bare-server.ts', '/bare', {});
}

/** The floor under our STOW-RS: the server's own parts, none of the product's layers. */
export function startStowFloorServer(): Promise<string> {
  return startServer(STOW_FLOOR_SERVER, '/', {});
}
