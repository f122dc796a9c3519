import { act } from '@testing-library/react';
import { vi } from 'vitest';

/**
 * IntersectionObserver for jsdom, which has none and lays nothing out: nothing is in view until a
 * test brings it there with `show`.
 */
export function stubIntersectionObserver() {
  const observers = new Set<FakeIntersectionObserver>();

  class FakeIntersectionObserver implements IntersectionObserver {
    readonly root: Element | Document | null;
    readonly rootMargin: string;
    readonly thresholds: readonly number[] = [0];
    readonly watched = new Set<Element>();

    constructor(
      private readonly callback: IntersectionObserverCallback,
      options: IntersectionObserverInit = {},
    ) {
      this.root = options.root ?? null;
      this.rootMargin = options.rootMargin ?? '0px';
      observers.add(this);
    }

    observe(element: Element) {
      this.watched.add(element);
    }

    unobserve(element: Element) {
      this.watched.delete(element);
    }

    disconnect() {
      this.watched.clear();
      observers.delete(this);
    }

    takeRecords(): IntersectionObserverEntry[] {
      return [];
    }

    reveal(elements: Element[]) {
      const entries = elements
        .filter((element) => this.watched.has(element))
        .map(
          (target) => ({ target, isIntersecting: true, intersectionRatio: 1 }) as IntersectionObserverEntry,
        );
      if (entries.length > 0) {
        this.callback(entries, this);
      }
    }
  }

  vi.stubGlobal('IntersectionObserver', FakeIntersectionObserver);
  return {
    /** Brings elements into view: every observer watching one of them hears of it. */
    show(...elements: Element[]) {
      act(() => {
        for (const observer of [...observers]) {
          observer.reveal(elements);
        }
      });
    },
    /** How many elements are being watched, and against which roots. */
    watched() {
      return [...observers].flatMap((observer) => [...observer.watched].map(() => observer.root));
    },
  };
}
