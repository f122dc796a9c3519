import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { stopChild } from '../../server/test/child-process.js';

/**
 * HAProxy (Debian's `haproxy` package) in front of the instances: round robin, no sticky sessions,
 * health-checked on /api/health; a request whose instance refuses the connection is sent to another.
 */
export interface Proxy {
  base: string;
  stop(): Promise<void>;
}

const HAPROXY = process.env.HAPROXY_BINARY ?? '/usr/sbin/haproxy';

export interface ProxyOptions {
  /**
   * Health checks (default on): an instance that does not answer /api/health within half a second,
   * twice, gets no requests until it does. Off for instances that share one process and its event
   * loop (server/test/proxied-pair.ts): a test's own synchronous work would mark them all down at once.
   */
  healthChecks?: boolean;
}

export function haproxyConfig(port: number, backends: number[], options: ProxyOptions = {}): string {
  const checks = options.healthChecks ?? true;
  return [
    'global',
    '  maxconn 4096',
    'defaults',
    '  mode http',
    '  option forwardfor',
    '  option redispatch',
    '  retries 3',
    '  retry-on conn-failure empty-response',
    '  timeout connect 2s',
    '  timeout client 10m',
    '  timeout server 10m',
    '  timeout http-request 1m',
    'frontend archive',
    `  bind 127.0.0.1:${port}`,
    '  default_backend instances',
    'backend instances',
    '  balance roundrobin',
    ...(checks ? ['  option httpchk GET /api/health', '  http-check expect status 200'] : []),
    ...backends.map(
      (backend, index) =>
        `  server app${index + 1} 127.0.0.1:${backend}${checks ? ' check inter 500ms fall 2 rise 1' : ''}`,
    ),
    '',
  ].join('\n');
}

export async function startHaproxy(
  port: number,
  backends: number[],
  options: ProxyOptions = {},
): Promise<Proxy> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'ra-haproxy-'));
  const file = path.join(dir, 'haproxy.cfg');
  await fs.writeFile(file, haproxyConfig(port, backends, options));
  // -db: stay in the foreground, so the proxy ends with whoever started it.
  const child: ChildProcess = spawn(HAPROXY, ['-db', '-f', file], { stdio: ['ignore', 'ignore', 'pipe'] });
  let output = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-4000);
  });
  const spawned = new Promise<void>((resolve, reject) => {
    child.once('spawn', resolve);
    child.once('error', (err) =>
      reject(
        new Error(
          `HAProxy could not start (${HAPROXY}): ${err.message}. Install it with "apt-get install haproxy".`,
        ),
      ),
    );
  });
  await spawned;
  const base = `http://127.0.0.1:${port}`;
  const stop = async () => {
    await stopChild(child);
    await fs.rm(dir, { recursive: true, force: true });
  };
  for (let attempt = 0; attempt < 100; attempt += 1) {
    if (child.exitCode !== null) {
      await stop();
      throw new Error(`HAProxy exited with ${child.exitCode}: ${output}`);
    }
    const isUp = await fetch(`${base}/api/health`).then(
      (response) => response.ok,
      () => false,
    );
    if (isUp) {
      return { base, stop };
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  await stop();
  throw new Error(`HAProxy did not answer on ${base}: ${output}`);
}
