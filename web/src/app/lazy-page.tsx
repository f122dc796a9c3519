import type { ComponentType } from 'react';
import { lazyComponent, type LazyComponent } from '../lib/lazy-component';

export type LazyPage = LazyComponent<Record<string, never>>;

/** A page whose module is loaded the first time it is shown or preloaded: each page is its own chunk. */
export function lazyPage<Name extends string>(
  load: () => Promise<Record<Name, ComponentType>>,
  name: Name,
): LazyPage {
  return lazyComponent(load, name);
}
