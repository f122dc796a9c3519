import { createWriteStream } from 'node:fs';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { z } from 'zod';
import {
  STUDY_MESSAGES,
  type AssignIncomingResponse,
  type IncomingList,
  type assignIncomingBodySchema,
} from '@ra/shared';
import type { AppContext } from '../../context.js';
import { uniqueViolationOf } from '../../lib/db-errors.js';
import { AppError, RuleViolation } from '../../lib/errors.js';
import type { Actor } from '../../lib/actor.js';
import { may, receivedItemFilter } from '../access/index.js';
import { readDate } from '../dicom/index.js';
import { announceNewItem } from '../archive-items/index.js';
import { readDicomFile, type DicomFile } from '../studies/index.js';
import { makeWorkDir, removeWorkDir } from '../studies/index.js';
import {
  fileOneStudy,
  fileReceivedStudy,
  findReceivedStudy,
  groupByStudy,
  guardNames,
  listReceivedStudies,
  peopleInStudy,
} from '../studies/index.js';
import { studySummaryOf } from '../archive-items/index.js';
import * as repo from './incoming.repository.js';

/**
 * The studies waiting in the physician's Incoming list (docs/api.md §12.3): received by STOW-RS
 * without a patient, they are archive items of no patient yet, readable by their receiver over
 * DICOMweb and listed nowhere else.
 */
export async function listIncoming(ctx: AppContext, user: Actor): Promise<IncomingList> {
  const rows = await listReceivedStudies(ctx.db, receivedItemFilter(user));
  return {
    studies: rows.map((row) => ({
      uid: row.id,
      study: studySummaryOf(row.study),
      received_at: row.receivedAt.toISOString(),
      source: row.receivedFrom,
    })),
  };
}

/**
 * Files a waiting study under one of the receiver's patients, with the wrong-patient guard: the
 * item gains its patient, who is told as for any new item; its files stay where they are.
 */
export async function assignIncoming(
  ctx: AppContext,
  user: Actor,
  id: string,
  body: z.output<typeof assignIncomingBodySchema>,
  ip: string,
): Promise<AssignIncomingResponse> {
  const waiting = await findReceivedStudy(ctx.db, receivedItemFilter(user), id);
  if (!waiting || !(await may(ctx, user, 'item:store', body.patient))) {
    throw new AppError('NOT_FOUND');
  }
  const people = await peopleInStudy(ctx.db, id);
  await guardNames(
    ctx,
    body,
    people.flatMap((person) =>
      Array.from({ length: person.files }, () => ({
        name: person.name.trim().replace(/\^+$/, ''),
        birthDate: readDate({ birth: { vr: 'DA', Value: [person.birthDate] } }, 'birth'),
      })),
    ),
  );
  await ctx.db.transaction(async (tx) => {
    let isFiled: boolean;
    try {
      isFiled = await fileReceivedStudy(tx, receivedItemFilter(user), id, body.patient);
    } catch (err) {
      if (uniqueViolationOf(err) === 'studies_namespace_uid_unique') {
        throw new RuleViolation(STUDY_MESSAGES.alreadyFiled);
      }
      throw err;
    }
    if (!isFiled) {
      // Filed by another request meanwhile.
      throw new AppError('NOT_FOUND');
    }
    await announceNewItem(
      tx,
      user,
      { id, patientId: body.patient },
      { notes: '', recommendationId: null, ip },
    );
  });
  return { success: true, item_uid: id };
}

/**
 * Files the studies received before migration 0010 (kept then outside the archive) as waiting
 * archive items of their receivers, once; a study that cannot be filed so stays and is logged.
 */
export async function refileLegacyIncoming(ctx: AppContext): Promise<void> {
  for (const legacy of await repo.listLegacyReceived(ctx.db)) {
    const workDir = await makeWorkDir(ctx.tusDir, 'legacy-incoming-');
    try {
      const files: DicomFile[] = [];
      for (const stored of legacy.files) {
        const file = path.join(workDir, `${stored.sopInstanceUid}.dcm`);
        await pipeline(await ctx.storage.read(stored.storageKey), createWriteStream(file));
        const read = await readDicomFile(stored.sopInstanceUid, file, (bytes) =>
          ctx.decoder.readInstance(bytes),
        );
        if (read && 'file' in read) {
          files.push(read.file);
        }
      }
      const receiver = { id: legacy.receiverId, role: 'PHYSICIAN' as const, emailVerified: true };
      const target = {
        patient: null,
        notes: '',
        confirm_patient_mismatch: true,
        receivedFrom: legacy.source,
      };
      for (const group of groupByStudy(files)) {
        await fileOneStudy(ctx, receiver, target, group, { recommendationId: null, ip: '' });
      }
      await repo.deleteLegacyReceived(ctx.db, legacy.id);
      for (const stored of legacy.files) {
        await ctx.storage.delete(stored.storageKey);
      }
    } catch (err) {
      ctx.log.warn(
        { err, incoming: legacy.id },
        'a study received before migration 0010 could not be filed again',
      );
    } finally {
      await removeWorkDir(workDir);
    }
  }
}
