import { Suspense } from 'react';
import { act, render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { lazyComponent } from './lazy-component';

function Greeting({ name }: { name: string }) {
  return <p>Hello {name}</p>;
}

/** A module that arrives when the test says so, and how many times it was asked for. */
function deferredModule() {
  let arrive: () => void = () => undefined;
  const loads = { count: 0 };
  const load = () => {
    loads.count += 1;
    return new Promise<{ Greeting: typeof Greeting }>((resolve) => {
      arrive = () => resolve({ Greeting });
    });
  };
  return { load, loads, arrive: () => arrive() };
}

describe('lazyComponent', () => {
  // That it then renders is driven in Chromium (every page and viewer); jsdom's act() does not
  // replay a suspended use() once its promise settles.
  it('shows the fallback while its code is on its way, and asks for the code once', () => {
    const module = deferredModule();
    const Lazy = lazyComponent(module.load, 'Greeting');
    render(
      <Suspense fallback={<p>Loading…</p>}>
        <Lazy name="Ada" />
        <Lazy name="Bob" />
      </Suspense>,
    );
    expect(screen.getByText('Loading…')).toBeInTheDocument();
    expect(module.loads.count).toBe(1);
  });

  it('renders at once, without its fallback, once preloaded code has arrived; the code is fetched once', async () => {
    const module = deferredModule();
    const Lazy = lazyComponent(module.load, 'Greeting');
    Lazy.preload();
    Lazy.preload();
    module.arrive();
    await act(async () => undefined);
    render(
      <Suspense fallback={<p>Loading…</p>}>
        <Lazy name="Ada" />
      </Suspense>,
    );
    expect(screen.getByText('Hello Ada')).toBeInTheDocument();
    expect(screen.queryByText('Loading…')).not.toBeInTheDocument();
    expect(module.loads.count).toBe(1);
  });
});
