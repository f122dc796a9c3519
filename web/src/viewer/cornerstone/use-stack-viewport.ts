import { useEffect, useId, useRef, useState } from 'react';
import { cache, Enums, eventTarget, type StackViewport, type Types } from '@cornerstonejs/core';
import { ToolGroupManager, utilities as toolUtilities } from '@cornerstonejs/tools';
import { displayScaleOf } from './display-scale';
import { failureOf, type ImageFailure } from './image-failure';
import { holdRenderingEngine } from './shared-engine';
import { createToolGroup } from './viewer-tools';
import { rangeOfWindow, windowOfRange, type Window } from './window-presets';

export interface ViewportState {
  /** 0-based index of the image shown, or asked for (it may yet fail). */
  index: number;
  window: Window | null;
  zoom: number;
  /** Images of the stack decoded so far (the prefetch's progress). */
  loaded: number;
  /** Milliseconds from mounting to the first image drawn; null until then. */
  firstImageMs: number | null;
  /**
   * Images of the stack whose last load failed, by image id, and why: the viewer says so rather
   * than count them as still coming. A later load that succeeds takes one off.
   */
  failed: ReadonlyMap<string, ImageFailure>;
}

const INITIAL_STATE: ViewportState = {
  index: 0,
  window: null,
  zoom: 1,
  loaded: 0,
  firstImageMs: null,
  failed: new Map(),
};

/** Where a stack opens: an image of it, with a window of its own rather than the file's. */
export interface StackStart {
  index: number;
  window?: Window;
}

/**
 * A Cornerstone stack viewport in `element` showing `slices` (a series' frames, or one raster
 * image): the start image (the middle one unless told) first, the rest prefetched around it; its
 * state (slice, window, zoom, progress) follows the renderer's events.
 */
export function useStackViewport(
  element: HTMLDivElement | null,
  slices: readonly { imageId: string }[] | undefined,
  /** Changing it opens the stack again (after a failure). */
  attempt = 0,
  start?: StackStart,
  /** The rendering engine shared by the viewports of a layout; the viewport's own unless given. */
  sharedEngineId?: string,
) {
  const ids = useId().replace(/[^a-zA-Z0-9]/g, '');
  const renderingEngineId = sharedEngineId ?? `engine-${ids}`;
  const viewportId = `viewport-${ids}`;
  const toolGroupId = `tools-${ids}`;
  const mountedAt = useRef(performance.now());
  // Read when the stack opens, not followed afterwards.
  const startRef = useRef(start);
  startRef.current = start;
  const [viewport, setViewport] = useState<StackViewport | null>(null);
  const [state, setState] = useState<ViewportState>(INITIAL_STATE);

  useEffect(() => {
    if (!element || !slices || slices.length === 0) {
      return undefined;
    }
    // Enabled on the layout's engine as the cell mounts, disabled as it unmounts.
    const { engine, release } = holdRenderingEngine(renderingEngineId);
    engine.enableElement({
      viewportId,
      type: Enums.ViewportType.STACK,
      element,
      defaultOptions: { background: [0, 0, 0] as Types.Point3 },
    });
    const stack = engine.getViewport<StackViewport>(viewportId);
    createToolGroup(toolGroupId, viewportId, renderingEngineId);

    const imageIds = slices.map((slice) => slice.imageId);
    const inStack = new Set(imageIds);
    // Images a viewer decoded before (this series seen again) are in the cache and announce nothing.
    const loaded = new Set(imageIds.filter((imageId) => cache.isLoaded(imageId)));
    setState((current) => ({ ...current, loaded: loaded.size }));
    const { index: first, window: firstWindow } = startRef.current ?? {
      index: Math.floor(imageIds.length / 2),
    };

    const handleNewImage = () => {
      setState((current) => ({ ...current, index: stack.getCurrentImageIdIndex() }));
    };
    // The image asked for becomes the current one at once: if it fails, the viewer says which
    // image failed instead of leaving the one before on screen under its own number.
    const handleImageAsked = (event: Event) => {
      const { imageIdIndex } = (event as CustomEvent<{ imageIdIndex: number }>).detail;
      setState((current) => (current.index === imageIdIndex ? current : { ...current, index: imageIdIndex }));
    };
    const showRange = (range: { lower: number; upper: number } | undefined) => {
      if (!range) {
        return;
      }
      const window = windowOfRange(range.lower, range.upper);
      setState((current) =>
        current.window?.center === window.center && current.window.width === window.width
          ? current
          : { ...current, window },
      );
    };
    const handleVoi = (event: Event) => {
      showRange((event as CustomEvent<{ range: { lower: number; upper: number } }>).detail.range);
    };
    const showZoom = () => {
      const zoom = displayScaleOf(stack);
      if (zoom !== undefined) {
        setState((current) => (Math.abs(current.zoom - zoom) < 1e-4 ? current : { ...current, zoom }));
      }
    };
    const handleCamera = showZoom;
    let isDrawn = false;
    const handleRendered = () => {
      // The processor renderer applies the file's window without announcing it.
      showRange(stack.getProperties().voiRange);
      // A new image (another size in the same stack) changes the scale without moving the camera.
      showZoom();
      // Renders before the first image arrives draw the background only.
      if (!isDrawn && stack.getCornerstoneImage()) {
        isDrawn = true;
        // A User Timing mark, for the bench and the browser's performance panel.
        const drawnAt = performance.mark('viewer:first-image').startTime;
        setState((current) => ({ ...current, firstImageMs: drawnAt - mountedAt.current }));
      }
    };
    const failed = new Map<string, ImageFailure>();
    const handleLoaded = (event: Event) => {
      const { image } = (event as CustomEvent<{ image: { imageId: string } }>).detail;
      if (inStack.has(image.imageId) && !loaded.has(image.imageId)) {
        loaded.add(image.imageId);
        failed.delete(image.imageId);
        setState((current) => ({ ...current, loaded: loaded.size, failed: new Map(failed) }));
      }
    };
    // A frame that cannot be fetched or decoded announces nothing on the viewport: without this
    // the progress would wait for it for ever.
    const handleLoadFailed = (event: Event) => {
      const { imageId, error } = (event as CustomEvent<{ imageId: string; error: unknown }>).detail;
      if (inStack.has(imageId) && !loaded.has(imageId)) {
        failed.set(imageId, failureOf(error));
        setState((current) => ({ ...current, failed: new Map(failed) }));
      }
    };
    element.addEventListener(Enums.Events.PRE_STACK_NEW_IMAGE, handleImageAsked);
    element.addEventListener(Enums.Events.STACK_NEW_IMAGE, handleNewImage);
    element.addEventListener(Enums.Events.VOI_MODIFIED, handleVoi);
    element.addEventListener(Enums.Events.CAMERA_MODIFIED, handleCamera);
    element.addEventListener(Enums.Events.IMAGE_RENDERED, handleRendered);
    eventTarget.addEventListener(Enums.Events.IMAGE_LOADED, handleLoaded);
    eventTarget.addEventListener(Enums.Events.IMAGE_LOAD_FAILED, handleLoadFailed);

    let isActive = true;
    setState((current) => ({ ...current, failed: new Map() }));
    const firstIndex = Math.min(imageIds.length - 1, Math.max(0, first));
    stack.setStack(imageIds, firstIndex).then(
      () => {
        if (!isActive) {
          return;
        }
        if (firstWindow) {
          stack.setProperties({ voiRange: rangeOfWindow(firstWindow) });
        }
        stack.render();
        setViewport(stack);
        handleNewImage();
        // The rest of the stack is fetched in the background, nearest images first.
        toolUtilities.stackPrefetch.enable(element);
      },
      (error: unknown) => {
        if (!isActive) {
          return;
        }
        // The loader has announced its failure; anything else that stopped the stack opening is
        // put down to the first image, so that the viewer never waits for it in silence.
        const imageId = imageIds[firstIndex]!;
        if (!failed.has(imageId)) {
          failed.set(imageId, failureOf(error));
          setState((current) => ({ ...current, failed: new Map(failed) }));
        }
        // The other images of the stack may still be read.
        setViewport(stack);
        toolUtilities.stackPrefetch.enable(element);
      },
    );

    // The first call says the size the viewport was enabled at: resizing then would refit the
    // other viewports of the engine for nothing.
    let isObserved = false;
    const resize = new ResizeObserver(() => {
      if (isObserved) {
        engine.resize(true, false);
      }
      isObserved = true;
    });
    resize.observe(element);

    return () => {
      isActive = false;
      resize.disconnect();
      toolUtilities.cine.stopClip(element);
      toolUtilities.stackPrefetch.disable(element);
      element.removeEventListener(Enums.Events.PRE_STACK_NEW_IMAGE, handleImageAsked);
      element.removeEventListener(Enums.Events.STACK_NEW_IMAGE, handleNewImage);
      element.removeEventListener(Enums.Events.VOI_MODIFIED, handleVoi);
      element.removeEventListener(Enums.Events.CAMERA_MODIFIED, handleCamera);
      element.removeEventListener(Enums.Events.IMAGE_RENDERED, handleRendered);
      eventTarget.removeEventListener(Enums.Events.IMAGE_LOADED, handleLoaded);
      eventTarget.removeEventListener(Enums.Events.IMAGE_LOAD_FAILED, handleLoadFailed);
      ToolGroupManager.destroyToolGroup(toolGroupId);
      engine.disableElement(viewportId);
      release();
      setViewport(null);
    };
  }, [element, slices, renderingEngineId, viewportId, toolGroupId, attempt]);

  return { viewport, state, toolGroupId };
}
