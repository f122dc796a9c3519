import { utilities, type StackViewport, type Types } from '@cornerstonejs/core';
import {
  AngleTool,
  ArrowAnnotateTool,
  EllipticalROITool,
  LengthTool,
  ProbeTool,
  RectangleROITool,
  annotation as annotationState,
  type Types as ToolTypes,
} from '@cornerstonejs/tools';
import type { Annotation, AnnotationFrame, AnnotationKind, SaveAnnotationBody } from '@ra/shared';
import { handlePoints, storedPoints, type ImagePoint } from './annotation-geometry';
import type { StackSlice } from './slice-order';

/** The tool that draws each kind the server keeps. */
const TOOL_OF_KIND: Record<AnnotationKind, string> = {
  length: (LengthTool as { toolName: string }).toolName,
  angle: (AngleTool as { toolName: string }).toolName,
  ellipse: (EllipticalROITool as { toolName: string }).toolName,
  rectangle: (RectangleROITool as { toolName: string }).toolName,
  probe: (ProbeTool as { toolName: string }).toolName,
  arrow: (ArrowAnnotateTool as { toolName: string }).toolName,
};
const KIND_OF_TOOL = new Map(
  Object.entries(TOOL_OF_KIND).map(([kind, tool]) => [tool, kind as AnnotationKind]),
);

const round = (value: number) => Math.round(value * 1000) / 1000;

export type ToolAnnotation = ToolTypes.Annotation & { data: { text?: string; label?: string } };

/**
 * The images an item's annotations are drawn on, and the frame the server files each under: a
 * series' frames, or the one picture of a raster item (whose frame is null).
 */
export interface AnnotationTargets {
  has: (imageId: string) => boolean;
  /** The stored frame of one of the images; undefined for another image. */
  frameOf: (imageId: string) => AnnotationFrame | null | undefined;
  /** The image a stored annotation is drawn on; undefined when it is not one of these. */
  imageIdOf: (frame: AnnotationFrame | null) => string | undefined;
}

const frameKey = (sopInstanceUid: string, frame: number) => `${sopInstanceUid}#${frame}`;

/** The frames of one series of a study. */
export function seriesTargets(seriesUid: string, slices: StackSlice[]): AnnotationTargets {
  const sliceOf = new Map(slices.map((slice) => [slice.imageId, slice]));
  const imageIdOf = new Map(
    slices.map((slice) => [frameKey(slice.sopInstanceUid, slice.frame), slice.imageId]),
  );
  return {
    has: (imageId) => sliceOf.has(imageId),
    frameOf: (imageId) => {
      const slice = sliceOf.get(imageId);
      return (
        slice && {
          series_instance_uid: seriesUid,
          sop_instance_uid: slice.sopInstanceUid,
          frame: slice.frame,
        }
      );
    },
    imageIdOf: (frame) => (frame ? imageIdOf.get(frameKey(frame.sop_instance_uid, frame.frame)) : undefined),
  };
}

/** The one picture of a raster item: its annotations have no frame. */
export function rasterTargets(imageId: string): AnnotationTargets {
  return {
    has: (candidate) => candidate === imageId,
    frameOf: (candidate) => (candidate === imageId ? null : undefined),
    imageIdOf: (frame) => (frame === null ? imageId : undefined),
  };
}

/**
 * What the server keeps of a tool's annotation on one of `targets`: its kind, frame, points in
 * image pixels and label; undefined for what the server does not keep (another tool, another image).
 */
export function toStored(drawn: ToolAnnotation, targets: AnnotationTargets): SaveAnnotationBody | undefined {
  const kind = drawn.metadata && KIND_OF_TOOL.get(drawn.metadata.toolName);
  const imageId = drawn.metadata?.referencedImageId;
  const frame = imageId ? targets.frameOf(imageId) : undefined;
  const world = drawn.data.handles?.points ?? [];
  if (!kind || frame === undefined || !imageId) {
    return undefined;
  }
  const pixels = world.map((point) => utilities.worldToImageCoords(imageId, point));
  if (pixels.some((point) => !point)) {
    return undefined;
  }
  return {
    kind,
    frame,
    // A thousandth of a pixel is far below what anyone draws, and keeps unmoved points equal.
    data: {
      points: storedPoints(
        kind,
        (pixels as ImagePoint[]).map(([x, y]) => [round(x), round(y)]),
      ),
    },
    label: (kind === 'arrow' ? drawn.data.text : drawn.data.label) ?? '',
  };
}

/** A stored annotation as the tool draws it on `viewport`'s stack; locked unless `isEditable`. */
export function toToolAnnotation(
  stored: Pick<Annotation, 'uid' | 'kind' | 'data' | 'label'>,
  imageId: string,
  viewport: StackViewport,
  isEditable: boolean,
): ToolAnnotation | undefined {
  const points = handlePoints(stored.kind, stored.data.points as ImagePoint[]).map((point) =>
    utilities.imageToWorldCoords(imageId, point),
  );
  if (points.some((point) => !point)) {
    return undefined;
  }
  const camera = viewport.getCamera();
  return {
    annotationUID: stored.uid,
    highlighted: false,
    invalidated: true,
    isLocked: !isEditable,
    isVisible: true,
    metadata: {
      toolName: TOOL_OF_KIND[stored.kind],
      referencedImageId: imageId,
      FrameOfReferenceUID: viewport.getFrameOfReferenceUID(),
      viewPlaneNormal: camera.viewPlaneNormal as Types.Point3,
      viewUp: camera.viewUp as Types.Point3,
    },
    data: {
      handles: { points: points as Types.Point3[], activeHandleIndex: null },
      label: stored.label,
      ...(stored.kind === 'arrow' && { text: stored.label }),
      cachedStats: {},
    },
  };
}

/** Draws stored annotations on the viewport's element; those of other authors stay locked. */
export function showStored(
  stored: Annotation[],
  targets: AnnotationTargets,
  viewport: StackViewport,
  isOwn: (item: Annotation) => boolean,
): void {
  for (const item of stored) {
    const imageId = targets.imageIdOf(item.frame);
    if (!imageId || annotationState.state.getAnnotation(item.uid)) {
      continue;
    }
    const drawn = toToolAnnotation(item, imageId, viewport, isOwn(item));
    if (drawn) {
      annotationState.state.addAnnotation(drawn, viewport.element);
      annotationState.locking.setAnnotationLocked(item.uid, !isOwn(item));
    }
  }
}
