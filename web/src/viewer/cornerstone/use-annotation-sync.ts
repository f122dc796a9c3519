import { useEffect, useMemo, useRef, useState } from 'react';
import { eventTarget, type StackViewport } from '@cornerstonejs/core';
import { annotation as annotationState, Enums as ToolEnums } from '@cornerstonejs/tools';
import type { Annotation, SaveAnnotationBody } from '@ra/shared';
import { dicomwebAccess } from '../../lib/dicomweb';
import { deleteAnnotation, saveAnnotation, useAnnotations } from '../api/annotations';
import { inOrderByKey } from './in-order';
import {
  rasterTargets,
  seriesTargets,
  showStored,
  toStored,
  type AnnotationTargets,
  type ToolAnnotation,
} from './annotation-sync';
import type { StackSlice } from './slice-order';

/** Changes made by dragging arrive many times a second; the last one of a pause is saved. */
const SAVE_DELAY_MS = 400;

export type SaveStatus = 'idle' | 'saving' | 'saved' | 'failed';

function bodyOf(item: Annotation): SaveAnnotationBody {
  return { kind: item.kind, frame: item.frame, data: item.data, label: item.label };
}

/** What the viewer shows: a series of a study, or a raster item's picture (undefined until known). */
export type AnnotatedImages =
  { seriesUid: string; slices: StackSlice[] | undefined } | { rasterImageId: string | undefined };

/**
 * Keeps the viewer's measurements and the server's annotations of the item in step: the stored
 * ones are drawn when the stack opens (other authors' locked), and the user's own are saved when
 * drawn or moved and deleted when removed.
 */
export function useAnnotationSync(
  options: {
    itemUid: string;
    viewport: StackViewport | null;
    myUid: string | undefined;
  } & AnnotatedImages,
) {
  const { itemUid, viewport, myUid } = options;
  const seriesUid = 'seriesUid' in options ? options.seriesUid : undefined;
  const slices = 'slices' in options ? options.slices : undefined;
  const rasterImageId = 'rasterImageId' in options ? options.rasterImageId : undefined;
  const targets = useMemo<AnnotationTargets | undefined>(() => {
    if (rasterImageId) {
      return rasterTargets(rasterImageId);
    }
    return seriesUid && slices ? seriesTargets(seriesUid, slices) : undefined;
  }, [seriesUid, slices, rasterImageId]);
  // A share link's viewer measures on the page alone: nothing is read or saved.
  const isShared = dicomwebAccess().isShared;
  const stored = useAnnotations(isShared ? null : itemUid);
  const [status, setStatus] = useState<SaveStatus>('idle');
  /** What the server holds of each of the user's annotations (as its body's JSON). */
  const saved = useRef(new Map<string, string>());
  /** Annotations of other authors: shown, never saved. */
  const others = useRef(new Set<string>());

  useEffect(() => {
    if (!viewport || !targets || !stored.data) {
      return;
    }
    for (const item of stored.data) {
      if (item.author.uid === myUid) {
        saved.current.set(item.uid, JSON.stringify(bodyOf(item)));
      } else {
        others.current.add(item.uid);
      }
    }
    showStored(stored.data, targets, viewport, (item) => item.author.uid === myUid);
    viewport.render();
  }, [viewport, targets, stored.data, myUid]);

  useEffect(() => {
    if (!viewport || !targets || isShared) {
      return undefined;
    }
    const timers = new Map<string, ReturnType<typeof setTimeout>>();
    // One request of an annotation at a time: saves and its deletion reach the server in order.
    const inOrder = inOrderByKey();
    let pending = 0;
    const track = (work: Promise<unknown>) => {
      pending += 1;
      setStatus('saving');
      work.then(
        () => {
          pending -= 1;
          // Saved once nothing is on its way nor waiting for the pause to end.
          if (pending === 0 && timers.size === 0) {
            setStatus('saved');
          }
        },
        () => {
          pending -= 1;
          setStatus('failed');
        },
      );
    };
    const handleChange = (event: Event) => {
      const drawn = (event as CustomEvent<{ annotation: ToolAnnotation }>).detail.annotation;
      const uid = drawn.annotationUID;
      if (!uid || others.current.has(uid) || drawn.isLocked) {
        return;
      }
      const body = toStored(drawn, targets);
      if (!body || saved.current.get(uid) === JSON.stringify(body)) {
        return;
      }
      clearTimeout(timers.get(uid));
      setStatus('saving');
      timers.set(
        uid,
        setTimeout(() => {
          timers.delete(uid);
          const json = JSON.stringify(body);
          track(
            inOrder(uid, () => saveAnnotation(itemUid, uid, body)).then(() => saved.current.set(uid, json)),
          );
        }, SAVE_DELAY_MS),
      );
    };
    const handleRemoved = (event: Event) => {
      const uid = (event as CustomEvent<{ annotation: ToolAnnotation }>).detail.annotation.annotationUID;
      if (!uid || others.current.has(uid)) {
        return;
      }
      clearTimeout(timers.get(uid));
      timers.delete(uid);
      if (saved.current.has(uid)) {
        track(inOrder(uid, () => deleteAnnotation(itemUid, uid)).then(() => saved.current.delete(uid)));
      }
    };
    const { Events } = ToolEnums;
    eventTarget.addEventListener(Events.ANNOTATION_COMPLETED, handleChange);
    eventTarget.addEventListener(Events.ANNOTATION_MODIFIED, handleChange);
    eventTarget.addEventListener(Events.ANNOTATION_REMOVED, handleRemoved);
    return () => {
      eventTarget.removeEventListener(Events.ANNOTATION_COMPLETED, handleChange);
      eventTarget.removeEventListener(Events.ANNOTATION_MODIFIED, handleChange);
      eventTarget.removeEventListener(Events.ANNOTATION_REMOVED, handleRemoved);
      // Changes still waiting are saved now rather than lost with the viewer.
      for (const [uid, timer] of timers) {
        clearTimeout(timer);
        const drawn = annotationState.state.getAnnotation(uid) as ToolAnnotation | undefined;
        const body = drawn && toStored(drawn, targets);
        if (body) {
          void inOrder(uid, () => saveAnnotation(itemUid, uid, body));
        }
      }
      // Drawn again from the server when the stack opens next; removing them here is not deleting.
      for (const drawn of annotationState.state.getAllAnnotations()) {
        const imageId = drawn.metadata?.referencedImageId;
        if (imageId && targets.has(imageId)) {
          annotationState.state.removeAnnotation(drawn.annotationUID!);
        }
      }
    };
  }, [viewport, targets, itemUid, isShared]);

  return { status, isLoadFailed: stored.isError };
}

/** Removes the selected annotations the user may edit (the Delete key). */
export function removeSelectedAnnotations(): number {
  let removed = 0;
  for (const uid of annotationState.selection.getAnnotationsSelected()) {
    if (!annotationState.locking.isAnnotationLocked(uid)) {
      annotationState.state.removeAnnotation(uid);
      removed += 1;
    }
  }
  return removed;
}
