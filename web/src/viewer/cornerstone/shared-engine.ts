import { getRenderingEngine, RenderingEngine } from '@cornerstonejs/core';

/** How many viewports hold each shared engine. */
const holders = new Map<string, number>();

/**
 * The rendering engine of a layout, shared by its viewports (one WebGL context for them all):
 * made by the first viewport that asks, destroyed when the last one lets it go.
 */
export function holdRenderingEngine(id: string): { engine: RenderingEngine; release: () => void } {
  const engine = getRenderingEngine(id) ?? new RenderingEngine(id);
  holders.set(id, (holders.get(id) ?? 0) + 1);
  let isReleased = false;
  return {
    engine,
    release: () => {
      if (isReleased) {
        return;
      }
      isReleased = true;
      const left = (holders.get(id) ?? 1) - 1;
      if (left > 0) {
        holders.set(id, left);
      } else {
        holders.delete(id);
        engine.destroy();
      }
    },
  };
}
