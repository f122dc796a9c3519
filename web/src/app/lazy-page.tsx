import { use, type ComponentType } from 'react';

export interface LazyPage {
  (): React.JSX.Element;
  /** Starts fetching the page's code before it is first shown. */
  preload: () => void;
}

/**
 * A page whose module is loaded the first time it is shown (or preloaded), so each page is its
 * own chunk of the build. Until the code is there the page suspends and the layout's Suspense
 * boundary shows a spinner. Unlike React.lazy, a page whose code has already arrived renders at
 * once instead of suspending for one more turn (React then holds a revealed page back ~300 ms).
 */
export function lazyPage<Name extends string>(
  load: () => Promise<Record<Name, ComponentType>>,
  name: Name,
): LazyPage {
  let loaded: ComponentType | undefined;
  let loading: Promise<ComponentType> | undefined;
  const start = () => {
    // A failed fetch stays failed, like React.lazy: retrying on every render would keep the page
    // loading forever; the error element offers a reload instead.
    loading ??= load().then((module) => (loaded = module[name]));
    return loading;
  };
  function Page() {
    const Loaded = loaded ?? use(start());
    return <Loaded />;
  }
  // A failed preload is not reported here: showing the page reports it.
  return Object.assign(Page, { preload: () => void start().catch(() => undefined) });
}
