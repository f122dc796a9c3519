import net from 'node:net';
import type { AppContext } from '../../context.js';
import { NodeAssociation } from './node-association.js';

/** Associations served at once; another caller is told to try again later (local limit exceeded). */
export const MAX_ASSOCIATIONS = 4;
/** Connections open at once (associations plus callers being refused); more are closed at once. */
const MAX_CONNECTIONS = 16;

/** dcmjs-dimse's timers, in milliseconds: to associate, and between two PDUs of a caller. */
const TIMEOUTS = { connectTimeout: 30_000, associationTimeout: 30_000, pduTimeout: 120_000 };

export interface RunningDicomNode {
  port: number;
  close(): Promise<void>;
}

/**
 * Starts the DICOM node on HOST and DICOM_PORT (docs/operations.md): a TCP server whose each
 * connection is one association (node-association.ts). Closing it stops listening, drops the
 * associations still open (their instances are not filed) and waits for filing under way.
 */
export async function startDicomNode(ctx: AppContext): Promise<RunningDicomNode> {
  const settings = ctx.config.dicom.node;
  if (!settings) {
    throw new Error('The DICOM node is off (DICOM_PORT is not set).');
  }
  let associations = 0;
  const work = new Set<Promise<unknown>>();
  const sockets = new Set<net.Socket>();
  const deps = {
    ctx,
    aeTitle: settings.aeTitle,
    claimSlot: () => {
      if (associations >= MAX_ASSOCIATIONS) {
        return false;
      }
      associations += 1;
      return true;
    },
    releaseSlot: () => {
      associations -= 1;
    },
    track: (promise: Promise<unknown>) => {
      work.add(promise);
      void promise.finally(() => work.delete(promise));
    },
  };
  const server = net.createServer((socket) => {
    if (sockets.size >= MAX_CONNECTIONS) {
      socket.destroy();
      return;
    }
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    // Each C-STORE response is a small PDU the sender waits for before the next instance: sent at
    // once, not held back by Nagle's algorithm until the sender acknowledges earlier bytes.
    socket.setNoDelay(true);
    const scp = new NodeAssociation(socket, TIMEOUTS, deps);
    // What dcmjs-dimse's own Server sets on the connections it accepts: its timers run from now.
    Object.assign(scp, { connected: true });
    scp.on('networkError', (err: Error) => {
      ctx.log.warn({ err: err.message, ip: socket.remoteAddress }, 'DICOM connection error');
      socket.destroy();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen({ host: ctx.config.host, port: settings.port }, () => {
      server.off('error', reject);
      resolve();
    });
  });
  server.on('error', (err) => ctx.log.error({ err }, 'DICOM node error'));
  const address = server.address() as net.AddressInfo;
  ctx.log.info(
    { host: ctx.config.host, port: address.port, aeTitle: settings.aeTitle },
    'DICOM node listening',
  );
  return {
    port: address.port,
    close: async () => {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      for (const socket of sockets) {
        socket.destroy();
      }
      await closed;
      while (work.size > 0) {
        await Promise.allSettled([...work]);
      }
    },
  };
}
