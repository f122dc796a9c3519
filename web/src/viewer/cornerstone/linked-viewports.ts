import { SynchronizerManager, synchronizers } from '@cornerstonejs/tools';
import type { LinkKind } from '../hanging-protocols';

/**
 * What linking a layout's viewports keeps in step: the image shown (by its position in the
 * patient, so series of one frame of reference show the same place), the window, and zoom and pan.
 */
const LINKS: Record<LinkKind, (id: string) => ReturnType<typeof synchronizers.createVOISynchronizer>> = {
  slice: (id: string) => synchronizers.createImageSliceSynchronizer(id),
  window: (id: string) =>
    synchronizers.createVOISynchronizer(id, { syncInvertState: true, syncColormap: false }),
  zoomPan: (id: string) => synchronizers.createZoomPanSynchronizer(id),
};

/**
 * Adds a viewport to its layout's links (Cornerstone's synchronizers, made by the first viewport
 * of the group and destroyed with the last); the function returned takes it out again.
 */
export function linkViewport(
  groupId: string,
  viewport: { renderingEngineId: string; viewportId: string },
  kinds: readonly LinkKind[] = Object.keys(LINKS) as LinkKind[],
) {
  const ids = kinds.map((kind) => {
    const id = `${groupId}:${kind}`;
    (SynchronizerManager.getSynchronizer(id) ?? LINKS[kind](id)).add(viewport);
    return id;
  });
  return () => {
    for (const id of ids) {
      const synchronizer = SynchronizerManager.getSynchronizer(id);
      synchronizer?.remove(viewport);
      if (synchronizer && synchronizer.getSourceViewports().length === 0) {
        SynchronizerManager.destroySynchronizer(id);
      }
    }
  };
}
