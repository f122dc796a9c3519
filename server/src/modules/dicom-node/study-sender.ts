import fs from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { AppContext } from '../../context.js';
import { makeWorkDir, removeWorkDir } from '../studies/index.js';
import dimse from './dimse-library.js';

const { Client } = dimse;
const { CStoreRequest } = dimse.requests;
const { Status } = dimse.constants;

/** How a send ended: instances the node accepted of those sent, or why the association failed. */
export interface SendOutcome {
  stored: number;
  total: number;
  /** Set when the association could not be made or broke off. */
  error?: string;
}

const REJECT_REASONS: Record<number, string> = {
  3: 'the node does not recognize our AE title',
  7: 'the node does not recognize its own AE title',
};

/**
 * Sends stored files to a DICOM node by C-STORE, in one association under our AE title. The files are
 * copied to a work folder first (dcmjs-dimse reads each one from a path as it sends it), one at a
 * time in memory.
 */
export async function sendFiles(
  ctx: AppContext,
  node: { aeTitle: string; host: string; port: number },
  storageKeys: string[],
): Promise<SendOutcome> {
  const ourAeTitle = ctx.config.dicom.aeTitle;
  const dir = await makeWorkDir(ctx.tusDir, 'dicom-send-');
  try {
    const files: string[] = [];
    for (const [index, key] of storageKeys.entries()) {
      const file = path.join(dir, `${index}.dcm`);
      await pipeline(await ctx.storage.read(key), (await fs.open(file, 'w')).createWriteStream());
      files.push(file);
    }
    return await new Promise<SendOutcome>((resolve) => {
      const outcome: SendOutcome = { stored: 0, total: files.length };
      const client = new Client();
      for (const file of files) {
        const request = new CStoreRequest(file);
        request.on('response', (response: { getStatus(): number }) => {
          if (response.getStatus() === Status.Success) {
            outcome.stored += 1;
          }
        });
        client.addRequest(request);
      }
      client.on('associationRejected', (rejected: { reason: number }) => {
        outcome.error = `the association was rejected (${REJECT_REASONS[rejected.reason] ?? `reason ${rejected.reason}`})`;
      });
      client.on('networkError', (err: Error) => {
        outcome.error ??= err.message;
        resolve(outcome);
      });
      client.on('closed', () => resolve(outcome));
      client.send(node.host, node.port, ourAeTitle, node.aeTitle, {
        connectTimeout: 10_000,
        associationTimeout: 30_000,
        pduTimeout: 60_000,
      });
    });
  } finally {
    await removeWorkDir(dir);
  }
}
