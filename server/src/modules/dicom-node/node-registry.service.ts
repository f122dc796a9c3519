import net from 'node:net';
import { z } from 'zod';
import { aeTitleField, emailField, type DicomNode } from '@ra/shared';
import type { Db } from '../../db/client.js';
import { RuleViolation } from '../../lib/errors.js';
import { auditChange } from '../audit/index.js';
import { findAccountByEmail } from '../identity/index.js';
import * as repo from './dicom-nodes.repository.js';

/*
 * The registry of DICOM nodes, kept by the operator (admin CLI): which calling AE titles the node
 * accepts, whose Incoming list each one fills, and where studies may be sent.
 */

export const newNodeSchema = z.object({
  physician: emailField('--physician must be a valid email address'),
  'ae-title': aeTitleField('--ae-title'),
  host: z
    .string()
    .trim()
    .refine((host) => net.isIP(host) !== 0, { error: '--host must be an IP address (IPv4 or IPv6).' })
    .optional(),
  port: z.coerce
    .number({ error: '--port must be a port number (1 to 65535)' })
    .int({ error: '--port must be a port number (1 to 65535)' })
    .min(1, { error: '--port must be a port number (1 to 65535)' })
    .max(65535, { error: '--port must be a port number (1 to 65535)' })
    .optional(),
});
export type NewNode = z.output<typeof newNodeSchema>;

/** Registers a node for a physician; the AE title must be free and the account a physician's. */
export async function addDicomNode(db: Db, node: NewNode) {
  const account = await findAccountByEmail(db, node.physician);
  if (!account || account.role !== 'PHYSICIAN') {
    throw new RuleViolation(`No physician account has the email ${node.physician}.`);
  }
  return db.transaction(async (tx) => {
    const row = await repo.insertNode(tx, {
      physicianId: account.id,
      aeTitle: node['ae-title'],
      host: node.host ?? null,
      port: node.port ?? null,
    });
    if (!row) {
      throw new RuleViolation(`The AE title "${node['ae-title']}" is registered already.`);
    }
    await auditChange(tx, {
      actorId: null,
      patientId: null,
      action: 'create',
      recordType: 'dicom-node',
      recordId: row.id,
      ip: null,
    });
    return row;
  });
}

/** Every registered node, by AE title, with its physician's email. */
export function listDicomNodes(db: Db) {
  return repo.listNodes(db);
}

/** Removes the node of that AE title; its studies already received stay where they are. */
export async function removeDicomNode(db: Db, aeTitle: string) {
  return db.transaction(async (tx) => {
    const row = await repo.deleteNode(tx, aeTitle);
    if (!row) {
      throw new RuleViolation(`No DICOM node has the AE title "${aeTitle}". See list-dicom-nodes.`);
    }
    await auditChange(tx, {
      actorId: null,
      patientId: null,
      action: 'delete',
      recordType: 'dicom-node',
      recordId: row.id,
      ip: null,
    });
  });
}

/** The physician's own nodes, for choosing where to send a study. */
export async function dicomNodesOf(db: Db, physicianId: string): Promise<DicomNode[]> {
  const rows = await repo.listNodesOf(db, physicianId);
  return rows.map((row) => ({
    ae_title: row.aeTitle,
    host: row.host,
    port: row.port,
    can_receive: row.host !== null && row.port !== null,
  }));
}
