import { useMemo } from 'react';
import type { StackViewport } from '@cornerstonejs/core';
import { removeSelectedAnnotations } from './use-annotation-sync';

/** The element alone on the screen, or back in the page. */
async function toggleFullScreen(element: HTMLElement | null) {
  if (document.fullscreenElement) {
    await document.exitFullscreen();
  } else {
    await element?.requestFullscreen();
  }
}

/**
 * The commands every viewer offers on its viewport: reset, invert, rotate, flip, delete the
 * selected measurements and full screen (of `fullScreenTarget`).
 */
export function useViewCommands(viewport: StackViewport | null, fullScreenTarget: HTMLElement | null) {
  return useMemo(
    () => ({
      reset: () => {
        viewport?.resetProperties();
        viewport?.resetCamera();
        viewport?.render();
      },
      invert: () => {
        viewport?.setProperties({ invert: !viewport.getProperties().invert });
        viewport?.render();
      },
      rotate: () => {
        viewport?.setViewPresentation({ rotation: (viewport.getRotation() + 90) % 360 });
        viewport?.render();
      },
      flip: (direction: 'flipHorizontal' | 'flipVertical') => {
        viewport?.setCamera({ [direction]: !viewport.getCamera()[direction] });
        viewport?.render();
      },
      deleteSelected: () => {
        if (removeSelectedAnnotations() > 0) {
          viewport?.render();
        }
      },
      toggleFullScreen: () => {
        void toggleFullScreen(fullScreenTarget);
      },
    }),
    [viewport, fullScreenTarget],
  );
}
