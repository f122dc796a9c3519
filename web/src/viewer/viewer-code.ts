import { useEffect } from 'react';
import type { Image } from '@ra/shared';
import { lazyComponent } from '../lib/lazy-component';
import { preloadPage, whenIdle } from '../lib/page-preloads';
import { PATHS } from '../lib/paths';

/*
 * The viewers (Cornerstone3D, its codecs and tools) are chunks of their own, fetched only where
 * items are shown: ahead of time by the lists that open items, else by the item's page.
 */
const loadDiagnosticViewer = () => import('./components/DiagnosticViewer');

export const DiagnosticViewer = lazyComponent(loadDiagnosticViewer, 'default');
export const RasterViewer = lazyComponent(() => import('./components/RasterViewer'), 'default');

/** Fetches the viewer's code and starts its renderer and decoders, ahead of the first series. */
export function prepareDiagnosticViewer(): Promise<void> {
  return loadDiagnosticViewer().then((viewer) => viewer.prepareViewer());
}

/**
 * Once a list of items is shown, the code of the page that opens them is fetched while the
 * browser is idle, so that opening an item waits for its data only.
 */
export function usePreloadItemPage(items: readonly unknown[]): void {
  const hasItems = items.length > 0;
  useEffect(() => (hasItems ? whenIdle(() => preloadPage(PATHS.imageView)) : undefined), [hasItems]);
}

/**
 * The viewer's code, fetched when the user shows the intent to open an item (a pointer over its
 * link, or the keyboard's focus on it) rather than by every list, which stays light.
 */
export function preloadViewerOf(item: Pick<Image, 'kind'>): void {
  (item.kind === 'study' ? DiagnosticViewer : RasterViewer).preload();
}
