import { useEffect, useId, useState } from 'react';
import {
  Enums,
  RenderingEngine,
  cache,
  cornerstoneStreamingImageVolumeLoader,
  eventTarget,
  getConfiguration,
  getShouldUseCPURendering,
  setUseCPURendering,
  setVolumesForViewports,
  volumeLoader,
  type Types,
} from '@cornerstonejs/core';
import {
  CrosshairsTool,
  Enums as ToolEnums,
  LengthTool,
  PanTool,
  StackScrollTool,
  SynchronizerManager,
  ToolGroupManager,
  WindowLevelTool,
  ZoomTool,
  addTool,
  annotation as annotationState,
  synchronizers,
} from '@cornerstonejs/tools';
import { failureOf } from '../cornerstone/image-failure';
import { setUpCornerstone } from '../cornerstone/setup';
import { lengthTextLines } from '../cornerstone/viewer-tools';

export type PlaneId = 'axial' | 'sagittal' | 'coronal';

/** The three planes, left to right, each with the colour of its line on the other two. */
export const MPR_PLANES: readonly {
  id: PlaneId;
  label: string;
  orientation: Enums.OrientationAxis;
  color: string;
}[] = [
  { id: 'axial', label: 'Axial', orientation: Enums.OrientationAxis.AXIAL, color: 'rgb(255, 96, 96)' },
  {
    id: 'sagittal',
    label: 'Sagittal',
    orientation: Enums.OrientationAxis.SAGITTAL,
    color: 'rgb(245, 205, 70)',
  },
  { id: 'coronal', label: 'Coronal', orientation: Enums.OrientationAxis.CORONAL, color: 'rgb(96, 205, 128)' },
];

const STREAMING_SCHEME = 'cornerstoneStreamingImageVolume';
const { MouseBindings } = ToolEnums;
const nameOf = (tool: { toolName: string }): string => tool.toolName;

/** What the left button does in MPR. */
export const MPR_TOOLS = [
  { id: 'crosshairs', name: nameOf(CrosshairsTool), label: 'Crosshairs', key: 'c' },
  { id: 'window', name: nameOf(WindowLevelTool), label: 'Window', key: 'w' },
  { id: 'length', name: nameOf(LengthTool), label: 'Length', key: 'l' },
  { id: 'pan', name: nameOf(PanTool), label: 'Pan', key: 'p' },
  { id: 'zoom', name: nameOf(ZoomTool), label: 'Zoom', key: 'z' },
] as const;
export type MprToolId = (typeof MPR_TOOLS)[number]['id'];

export interface MprLoad {
  /** `building`: the volume is made and its images fetched; `ready`: all in; `failed`: see `error`. */
  status: 'building' | 'ready' | 'failed';
  /** Images of the volume fetched and decoded so far, of `total`. */
  loaded: number;
  total: number;
  error: string | null;
}

export interface MprVolume {
  load: MprLoad;
  /** The three viewports once the volume is on them. */
  viewports: Record<PlaneId, Types.IVolumeViewport> | null;
  volumeId: string;
  toolGroupId: string;
}

let isLoaderRegistered = false;

/** Cornerstone's streaming loader for our volume ids, and the tools MPR adds to the viewer's. */
function registerMprPieces() {
  if (!isLoaderRegistered) {
    volumeLoader.registerVolumeLoader(
      STREAMING_SCHEME,
      cornerstoneStreamingImageVolumeLoader as unknown as Types.VolumeLoaderFn,
    );
    isLoaderRegistered = true;
  }
  addTool(CrosshairsTool);
}

/**
 * A rendering engine that draws with WebGL. The stack viewer draws on the processor where WebGL is
 * software (see `hasSoftwareWebGl`), but volume viewports exist only in WebGL: the engine and its
 * viewports read the setting as they are made, so it is lifted for that moment only and the stack
 * viewers keep theirs. The engine also takes one WebGL context rather than Cornerstone's pool of
 * seven (its volume viewports all draw in the first), so that the browser's limit on contexts is
 * not reached with stack viewers open beside it.
 */
function createGpuEngine(engineId: string, inputs: Types.PublicViewportInput[]): RenderingEngine {
  const wasCpu = getShouldUseCPURendering();
  const { rendering } = getConfiguration();
  const contexts = rendering?.webGlContextCount;
  if (rendering) {
    rendering.webGlContextCount = 1;
  }
  if (wasCpu) {
    setUseCPURendering(false, false);
  }
  try {
    const engine = new RenderingEngine(engineId);
    try {
      engine.setViewports(inputs);
    } catch (error) {
      engine.destroy();
      throw error;
    }
    return engine;
  } finally {
    if (rendering) {
      rendering.webGlContextCount = contexts;
    }
    if (wasCpu) {
      setUseCPURendering(true, false);
    }
  }
}

function createMprToolGroup(toolGroupId: string, engineId: string, viewportIds: Record<PlaneId, string>) {
  ToolGroupManager.destroyToolGroup(toolGroupId);
  const group = ToolGroupManager.createToolGroup(toolGroupId)!;
  const planeOf = (viewportId: string) => MPR_PLANES.find((plane) => viewportIds[plane.id] === viewportId);
  group.addTool(nameOf(CrosshairsTool), {
    getReferenceLineColor: (viewportId: string) => planeOf(viewportId)?.color ?? 'rgb(200, 200, 200)',
    getReferenceLineControllable: () => true,
    getReferenceLineDraggableRotatable: () => true,
    // The slab is the toolbar's, for all three planes at once.
    getReferenceLineSlabThicknessControlsOn: () => false,
  });
  group.addTool(nameOf(WindowLevelTool));
  group.addTool(nameOf(PanTool));
  group.addTool(nameOf(ZoomTool));
  group.addTool(nameOf(StackScrollTool));
  group.addTool(nameOf(LengthTool), { getTextLines: lengthTextLines });
  for (const plane of MPR_PLANES) {
    group.addViewport(viewportIds[plane.id], engineId);
  }
  group.setToolActive(nameOf(StackScrollTool), { bindings: [{ mouseButton: MouseBindings.Wheel }] });
  return group;
}

/** Puts `id` on the left button; pan and zoom keep the middle and right buttons, measurements stay. */
export function chooseMprTool(toolGroupId: string, id: MprToolId) {
  const group = ToolGroupManager.getToolGroup(toolGroupId);
  if (!group) {
    return;
  }
  for (const tool of MPR_TOOLS) {
    group.setToolPassive(tool.name);
  }
  const chosen = MPR_TOOLS.find((tool) => tool.id === id)!;
  group.setToolActive(chosen.name, { bindings: [{ mouseButton: MouseBindings.Primary }] });
  if (chosen.id !== 'pan') {
    group.setToolActive(nameOf(PanTool), { bindings: [{ mouseButton: MouseBindings.Auxiliary }] });
  }
  if (chosen.id !== 'zoom') {
    group.setToolActive(nameOf(ZoomTool), { bindings: [{ mouseButton: MouseBindings.Secondary }] });
  }
}

/** The crosshairs and measurements drawn in MPR: they go with it (they are not saved). */
function removeMprAnnotations(viewportIds: readonly string[], drawn: ReadonlySet<string>) {
  for (const item of annotationState.state.getAllAnnotations()) {
    const uid = item.annotationUID;
    const isCrosshair = item.metadata?.toolName === nameOf(CrosshairsTool);
    const isOurs = uid !== undefined && drawn.has(uid);
    const isOfOurViewport =
      'viewportId' in item.data &&
      viewportIds.includes(String((item.data as { viewportId?: unknown }).viewportId));
    if (uid && (isOurs || (isCrosshair && isOfOurViewport))) {
      annotationState.state.removeAnnotation(uid);
    }
  }
}

/**
 * A series as a volume in three orthographic viewports (axial, sagittal, coronal) with crosshairs,
 * a shared window and the length tool: Cornerstone's streaming volume, its images fetched through
 * the stack viewer's loader (metadata already registered by `registerSeriesStack`), its progress
 * and failures counted. Everything goes when the view closes.
 */
export function useMprVolume(
  elements: Record<PlaneId, HTMLDivElement | null>,
  seriesUid: string,
  imageIds: readonly string[],
  /** Changing it builds the volume again (after a failure). */
  attempt = 0,
): MprVolume {
  const ids = useId().replace(/[^a-zA-Z0-9]/g, '');
  const engineId = `mpr-engine-${ids}`;
  const toolGroupId = `mpr-tools-${ids}`;
  const voiSyncId = `mpr-voi-${ids}`;
  const volumeId = `${STREAMING_SCHEME}:mpr-${ids}-${seriesUid}`;
  const [load, setLoad] = useState<MprLoad>({
    status: 'building',
    loaded: 0,
    total: imageIds.length,
    error: null,
  });
  const [viewports, setViewports] = useState<MprVolume['viewports']>(null);
  const { axial, sagittal, coronal } = elements;

  useEffect(() => {
    if (!axial || !sagittal || !coronal || imageIds.length === 0) {
      return undefined;
    }
    const elementOf: Record<PlaneId, HTMLDivElement> = { axial, sagittal, coronal };
    const viewportIds = Object.fromEntries(
      MPR_PLANES.map((plane) => [plane.id, `mpr-${plane.id}-${ids}`]),
    ) as Record<PlaneId, string>;
    const inVolume = new Set(imageIds);
    const drawn = new Set<string>();
    let isActive = true;
    let engine: RenderingEngine | undefined;
    // By image: the stack viewer's own loads of the same images report their failures too.
    const failed = new Set<string>();
    let loaded = 0;
    const total = imageIds.length;
    setLoad({ status: 'building', loaded: 0, total, error: null });
    setViewports(null);

    const fail = (error: string) => {
      if (isActive) {
        setLoad((current) => ({ ...current, status: 'failed', error }));
      }
    };
    const handleModified = (event: Event) => {
      const detail = (event as CustomEvent<{ volumeId: string; framesProcessed: number }>).detail;
      if (detail.volumeId === volumeId && isActive) {
        loaded = Math.max(loaded, detail.framesProcessed);
        setLoad((current) => ({ ...current, loaded }));
      }
    };
    const handleFailed = (event: Event) => {
      const { imageId, error } = (event as CustomEvent<{ imageId: string; error: unknown }>).detail;
      if (inVolume.has(imageId)) {
        failed.add(imageId);
        fail(
          `The volume could not be built: ${failed.size} of its ${total} images could not be ${
            failureOf(error) === 'decode' ? 'decoded' : 'fetched'
          }.`,
        );
      }
    };
    const handleCompleted = (event: Event) => {
      const detail = (event as CustomEvent<{ volumeId: string }>).detail;
      if (detail.volumeId === volumeId && isActive && failed.size === 0) {
        setLoad((current) => ({ ...current, status: 'ready', loaded: total }));
      }
    };
    const handleAdded = (event: Event) => {
      const detail = (event as CustomEvent<{ viewportId?: string; annotation: { annotationUID?: string } }>)
        .detail;
      if (detail.annotation.annotationUID && Object.values(viewportIds).includes(detail.viewportId ?? '')) {
        drawn.add(detail.annotation.annotationUID);
      }
    };
    eventTarget.addEventListener(Enums.Events.IMAGE_VOLUME_MODIFIED, handleModified);
    eventTarget.addEventListener(Enums.Events.IMAGE_LOAD_FAILED, handleFailed);
    eventTarget.addEventListener(Enums.Events.IMAGE_VOLUME_LOADING_COMPLETED, handleCompleted);
    eventTarget.addEventListener(ToolEnums.Events.ANNOTATION_ADDED, handleAdded);

    const resize = new ResizeObserver(() => engine?.resize(true, true));
    const build = async () => {
      await setUpCornerstone();
      registerMprPieces();
      if (!isActive) {
        return;
      }
      try {
        engine = createGpuEngine(
          engineId,
          MPR_PLANES.map((plane) => ({
            viewportId: viewportIds[plane.id],
            type: Enums.ViewportType.ORTHOGRAPHIC,
            element: elementOf[plane.id],
            defaultOptions: { orientation: plane.orientation, background: [0, 0, 0] as Types.Point3 },
          })),
        );
      } catch {
        fail('This browser cannot draw volumes (WebGL 2 is off or missing), so MPR is not available here.');
        return;
      }
      const volume = await volumeLoader.createAndCacheVolume(volumeId, { imageIds: [...imageIds] });
      if (!isActive) {
        return;
      }
      await setVolumesForViewports(engine, [{ volumeId }], Object.values(viewportIds));
      if (!isActive) {
        return;
      }
      createMprToolGroup(toolGroupId, engineId, viewportIds);
      const voiSync = synchronizers.createVOISynchronizer(voiSyncId, {
        syncInvertState: true,
        syncColormap: false,
      });
      for (const plane of MPR_PLANES) {
        voiSync.add({ renderingEngineId: engineId, viewportId: viewportIds[plane.id] });
        resize.observe(elementOf[plane.id]);
      }
      chooseMprTool(toolGroupId, 'crosshairs');
      (volume as Types.IStreamingImageVolume).load();
      engine.render();
      setViewports(
        Object.fromEntries(
          MPR_PLANES.map((plane) => [
            plane.id,
            engine!.getViewport<Types.IVolumeViewport>(viewportIds[plane.id]),
          ]),
        ) as Record<PlaneId, Types.IVolumeViewport>,
      );
    };
    build().catch((error: unknown) => {
      console.error('MPR: the volume could not be built', error);
      fail(`The volume could not be built: ${error instanceof Error ? error.message : String(error)}`);
    });

    return () => {
      isActive = false;
      resize.disconnect();
      eventTarget.removeEventListener(Enums.Events.IMAGE_VOLUME_MODIFIED, handleModified);
      eventTarget.removeEventListener(Enums.Events.IMAGE_LOAD_FAILED, handleFailed);
      eventTarget.removeEventListener(Enums.Events.IMAGE_VOLUME_LOADING_COMPLETED, handleCompleted);
      eventTarget.removeEventListener(ToolEnums.Events.ANNOTATION_ADDED, handleAdded);
      const volume = cache.getVolume(volumeId) as Types.IStreamingImageVolume | undefined;
      (volume as { cancelLoading?: () => void } | undefined)?.cancelLoading?.();
      SynchronizerManager.destroySynchronizer(voiSyncId);
      ToolGroupManager.destroyToolGroup(toolGroupId);
      removeMprAnnotations(Object.values(viewportIds), drawn);
      engine?.destroy();
      // The decoded images stay in the image cache for the stack viewer; the volume goes.
      if (cache.getVolumeLoadObject(volumeId)) {
        cache.removeVolumeLoadObject(volumeId);
      }
      setViewports(null);
    };
  }, [axial, sagittal, coronal, imageIds, ids, engineId, toolGroupId, voiSyncId, volumeId, attempt]);

  return { load, viewports, volumeId, toolGroupId };
}
