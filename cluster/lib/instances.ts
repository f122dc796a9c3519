import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { SERVER_NODE_FLAGS } from '../../server/src/node-flags.js';

const root = path.resolve(import.meta.dirname, '..', '..');

/** One server process of the cluster: the compiled server, as `npm start` runs it. */
export interface Instance {
  name: string;
  port: number;
  base: string;
  pid(): number | undefined;
  /** Kills the process at once (SIGKILL), as a crash or a lost machine would. */
  kill(): Promise<void>;
  /** Stops it cleanly (SIGTERM): work in flight finishes or is picked up by another instance. */
  stop(): Promise<void>;
  /** Starts it again on the same port, and waits until it answers. */
  start(): Promise<void>;
}

async function waitForHealth(base: string, child: ChildProcess, output: () => string): Promise<void> {
  for (let attempt = 0; attempt < 600; attempt += 1) {
    if (child.exitCode !== null) {
      throw new Error(`the instance at ${base} exited with ${child.exitCode}:\n${output()}`);
    }
    const isUp = await fetch(`${base}/api/health`).then(
      (response) => response.ok,
      () => false,
    );
    if (isUp) {
      return;
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`the instance at ${base} did not answer:\n${output()}`);
}

export function instance(name: string, port: number, env: Record<string, string>): Instance {
  let child: ChildProcess | undefined;
  let output = '';
  const base = `http://127.0.0.1:${port}`;
  const ended = (process: ChildProcess) =>
    process.exitCode !== null || process.signalCode !== null
      ? Promise.resolve()
      : new Promise<void>((resolve) => process.once('exit', () => resolve()));
  const signal = async (name: NodeJS.Signals) => {
    const running = child;
    child = undefined;
    if (running) {
      running.kill(name);
      await ended(running);
    }
  };
  return {
    name,
    port,
    base,
    pid: () => child?.pid,
    kill: () => signal('SIGKILL'),
    stop: () => signal('SIGTERM'),
    async start() {
      output = '';
      const started = spawn(process.execPath, [...SERVER_NODE_FLAGS, 'server/dist/main.js'], {
        cwd: root,
        env: { ...process.env, ...env, PORT: String(port) },
        stdio: ['ignore', 'ignore', 'pipe'],
      });
      child = started;
      started.stderr?.on('data', (chunk: Buffer) => {
        output = (output + chunk.toString()).slice(-8000);
        if (process.env.CLUSTER_VERBOSE) {
          process.stderr.write(`[${name}] ${chunk.toString()}`);
        }
      });
      await waitForHealth(base, started, () => output);
    },
  };
}
