import { spawn, type ChildProcess } from 'node:child_process';
import net from 'node:net';
import pg from 'pg';
import { freePort } from '../../server/test/free-port.js';

/**
 * What the instances share besides storage: one PostgreSQL database and one Redis. Both are taken
 * from the machine (the local PostgreSQL, a running Redis) or, for Redis, started here.
 */

/** Creates the database `url` names when it is missing (through the server's `postgres` database). */
export async function ensureDatabase(url: string): Promise<void> {
  const name = new URL(url).pathname.slice(1);
  if (!/^[a-z_][a-z0-9_]*$/.test(name)) {
    throw new Error(`CLUSTER_DATABASE_URL must name a database of lowercase letters, digits and _: ${name}`);
  }
  const admin = new URL(url);
  admin.pathname = '/postgres';
  const client = new pg.Client({ connectionString: admin.toString() });
  await client.connect();
  try {
    const found = await client.query('select 1 from pg_database where datname = $1', [name]);
    if (found.rowCount === 0) {
      await client.query(`create database ${name}`);
    }
  } finally {
    await client.end();
  }
}

/** Drops a database the cluster made for one run (tests), with whoever is still connected. */
export async function dropDatabase(url: string): Promise<void> {
  const name = new URL(url).pathname.slice(1);
  const admin = new URL(url);
  admin.pathname = '/postgres';
  const client = new pg.Client({ connectionString: admin.toString() });
  await client.connect();
  try {
    await client.query(`drop database if exists ${name} with (force)`);
  } finally {
    await client.end();
  }
}

function answers(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ host, port });
    socket.setTimeout(1000);
    socket.once('connect', () => {
      socket.end();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
    socket.once('timeout', () => {
      socket.destroy();
      resolve(false);
    });
  });
}

export interface RedisService {
  url: string;
  stop(): Promise<void>;
}

/**
 * The Redis at `url` when one answers there; otherwise a `redis-server` (Debian's `redis-server`
 * package) started on a free loopback port, keeping nothing on disk.
 */
export async function redisFor(url: string): Promise<RedisService> {
  const { hostname, port } = new URL(url);
  if (await answers(hostname, Number(port || 6379))) {
    return { url, stop: () => Promise.resolve() };
  }
  const free = await freePort();
  const child: ChildProcess = spawn(
    'redis-server',
    ['--port', String(free), '--bind', '127.0.0.1', '--save', ''],
    {
      stdio: 'ignore',
    },
  );
  await new Promise<void>((resolve, reject) => {
    child.once('spawn', resolve);
    child.once('error', (err) =>
      reject(new Error(`No Redis at ${url}, and redis-server could not start: ${err.message}`)),
    );
  });
  for (let attempt = 0; attempt < 50 && !(await answers('127.0.0.1', free)); attempt += 1) {
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return {
    url: `redis://127.0.0.1:${free}`,
    stop: async () => {
      if (child.exitCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGTERM');
        await exited;
      }
    },
  };
}
