import { use, type ComponentType } from 'react';

export interface LazyComponent<Props extends object> {
  (props: Props): React.JSX.Element;
  /** Starts fetching the component's code before it is first shown. */
  preload: () => void;
}

/**
 * A component whose module is loaded the first time it is shown (or preloaded), so that its code
 * is a chunk of its own. Until the code is there it suspends, and the nearest Suspense boundary
 * shows its fallback. Unlike React.lazy, a component whose code has already arrived renders at
 * once instead of suspending for one more turn (React then holds the revealed content back about
 * 300 ms), which is what preloading is for.
 */
export function lazyComponent<Props extends object, Name extends string>(
  load: () => Promise<Record<Name, ComponentType<Props>>>,
  name: Name,
): LazyComponent<Props> {
  let loaded: ComponentType<Props> | undefined;
  let loading: Promise<ComponentType<Props>> | undefined;
  const start = () => {
    // A failed fetch stays failed, like React.lazy: retrying on every render would keep the
    // component loading forever; the error boundary offers a reload instead.
    loading ??= load().then((module) => (loaded = module[name]));
    return loading;
  };
  function Lazy(props: Props) {
    const Loaded = loaded ?? use(start());
    return <Loaded {...props} />;
  }
  // A failed preload is not reported here: showing the component reports it.
  return Object.assign(Lazy, { preload: () => void start().catch(() => undefined) });
}
