import type { z } from 'zod';
import {
  ANNOTATION_LIMITS,
  ANNOTATION_MESSAGES,
  displayName,
  type Annotation,
  type saveAnnotationBodySchema,
} from '@ra/shared';
import type { AppContext } from '../../context.js';
import { AppError, InvalidInput, RuleViolation } from '../../lib/errors.js';
import type { Actor } from '../../lib/actor.js';
import { annotationAuthorsFor, requirePermitted } from '../access/index.js';
import { auditChange, auditReads } from '../audit/index.js';
import { areFramesOfStudy } from '../archive-items/index.js';
import * as repo from './annotations.repository.js';

export type SaveAnnotationBody = z.output<typeof saveAnnotationBodySchema>;
type Item = NonNullable<Awaited<ReturnType<typeof repo.findItem>>>;

/** The item, when the caller may read it (the readers of GET /api/image/{uid}); NOT_FOUND otherwise. */
async function findReadableItem(ctx: AppContext, user: Actor, itemId: string): Promise<Item> {
  await requirePermitted(ctx, user, 'item:read', [itemId]);
  const item = await repo.findItem(ctx.db, itemId);
  if (!item) {
    throw new AppError('NOT_FOUND');
  }
  return item;
}

function toAnnotation(row: repo.AnnotationRow): Annotation {
  return {
    uid: row.id,
    author: {
      uid: row.authorId,
      role: row.authorRole,
      full_name: displayName({
        title: row.authorTitle,
        first_name: row.authorFirstName,
        last_name: row.authorLastName,
      }),
    },
    kind: row.kind,
    frame:
      row.seriesInstanceUid !== null && row.sopInstanceUid !== null && row.frame !== null
        ? {
            series_instance_uid: row.seriesInstanceUid,
            sop_instance_uid: row.sopInstanceUid,
            frame: row.frame,
          }
        : null,
    data: row.data,
    label: row.label,
    updatedAt: row.updatedAt.toISOString(),
  };
}

/** The annotations of the item the caller sees (access.policy `annotationAuthorsFor`). */
export async function listAnnotations(
  ctx: AppContext,
  user: Actor,
  itemId: string,
  ip: string,
): Promise<Annotation[]> {
  const item = await findReadableItem(ctx, user, itemId);
  const rows = await repo.listAnnotations(ctx.db, itemId, await annotationAuthorsFor(ctx, user, itemId));
  await auditReads(ctx, [
    {
      actorId: user.id,
      patientId: item.patientId,
      action: 'read',
      recordType: 'annotation-list',
      recordId: itemId,
      ip,
    },
  ]);
  return rows.map(toAnnotation);
}

/** A study's annotation names one of its frames; a raster image's names none. */
async function checkFrame(ctx: AppContext, item: Item, frame: SaveAnnotationBody['frame']): Promise<void> {
  if (item.kind === 'image') {
    if (frame !== null) {
      throw new InvalidInput('frame', ANNOTATION_MESSAGES.frameOnImage);
    }
    return;
  }
  if (frame === null) {
    throw new InvalidInput('frame', ANNOTATION_MESSAGES.frameRequired);
  }
  const reference = {
    seriesInstanceUid: frame.series_instance_uid,
    sopInstanceUid: frame.sop_instance_uid,
    frame: frame.frame,
  };
  if (!(await areFramesOfStudy(ctx.db, item.id, [reference]))) {
    throw new InvalidInput('frame', ANNOTATION_MESSAGES.notInStudy);
  }
}

/** Creates or replaces the caller's annotation `annotationId` on the item. */
export async function saveAnnotation(
  ctx: AppContext,
  user: Actor,
  itemId: string,
  annotationId: string,
  body: SaveAnnotationBody,
  ip: string,
): Promise<Annotation> {
  const item = await findReadableItem(ctx, user, itemId);
  await checkFrame(ctx, item, body.frame);
  await ctx.db.transaction(async (tx) => {
    await repo.lockAuthorItem(tx, itemId, user.id);
    const owner = await repo.findOwner(tx, annotationId);
    // Someone else's id, or the caller's on another item, answers like one that does not exist.
    if (owner && (owner.authorId !== user.id || owner.itemId !== itemId)) {
      throw new AppError('NOT_FOUND');
    }
    if (!owner && (await repo.countAnnotations(tx, itemId, user.id)) >= ANNOTATION_LIMITS.perAuthorPerItem) {
      throw new RuleViolation(ANNOTATION_MESSAGES.tooMany);
    }
    await repo.upsertAnnotation(tx, {
      id: annotationId,
      itemId,
      authorId: user.id,
      kind: body.kind,
      seriesInstanceUid: body.frame?.series_instance_uid ?? null,
      sopInstanceUid: body.frame?.sop_instance_uid ?? null,
      frame: body.frame?.frame ?? null,
      data: body.data,
      label: body.label,
    });
    await auditChange(tx, {
      actorId: user.id,
      patientId: item.patientId,
      action: owner ? 'update' : 'create',
      recordType: 'annotation',
      recordId: annotationId,
      ip,
    });
  });
  const saved = await repo.findAnnotation(ctx.db, annotationId);
  return toAnnotation(saved!);
}

/** Deletes the caller's own annotation; anyone else's, or none, is NOT_FOUND. */
export async function deleteAnnotation(
  ctx: AppContext,
  user: Actor,
  itemId: string,
  annotationId: string,
  ip: string,
): Promise<void> {
  const item = await findReadableItem(ctx, user, itemId);
  await ctx.db.transaction(async (tx) => {
    if (!(await repo.deleteAnnotation(tx, annotationId, itemId, user.id))) {
      throw new AppError('NOT_FOUND');
    }
    await auditChange(tx, {
      actorId: user.id,
      patientId: item.patientId,
      action: 'delete',
      recordType: 'annotation',
      recordId: annotationId,
      ip,
    });
  });
}

/** Of `itemIds`, those the author has marked (a radiologist's analysis in progress, for the worklist). */
export function itemsAnnotatedBy(ctx: AppContext, authorId: string, itemIds: string[]): Promise<Set<string>> {
  return itemIds.length > 0 ? repo.itemsAnnotatedBy(ctx.db, authorId, itemIds) : Promise.resolve(new Set());
}

/**
 * One author's annotations on an item, oldest first, for work done after their analysis was
 * accepted (the reports module's documents); no access decision is made here.
 */
export function annotationsOfAuthor(ctx: AppContext, itemId: string, authorId: string) {
  return repo.listAnnotations(ctx.db, itemId, [authorId]);
}
