/**
 * Fetching a page's code ahead of the visit, for the features that know where a user is likely to
 * go next. The router registers how (it knows the pages); features only name the path.
 */
let preloader: (path: string) => void = () => undefined;

export function registerPagePreloader(preload: (path: string) => void): void {
  preloader = preload;
}

export function preloadPage(path: string): void {
  preloader(path);
}

/** Runs `work` when the browser is idle (or soon, where it cannot tell); returns a cancel. */
export function whenIdle(work: () => void): () => void {
  if (typeof requestIdleCallback === 'function') {
    const handle = requestIdleCallback(work, { timeout: 2000 });
    return () => cancelIdleCallback(handle);
  }
  const handle = setTimeout(work, 200);
  return () => clearTimeout(handle);
}
