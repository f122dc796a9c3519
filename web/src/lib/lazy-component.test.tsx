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
  it('suspends until its code arrives, asking for it once, then renders with its props', async () => {
    const module = deferredModule();
    const Lazy = lazyComponent(module.load, 'Greeting');
    await act(async () => {
      render(
        <Suspense fallback={<p>Loading…</p>}>
          <Lazy name="Ada" />
          <Lazy name="Bob" />
        </Suspense>,
      );
    });
    expect(screen.getByText('Loading…')).toBeInTheDocument();
    expect(module.loads.count).toBe(1);
    await act(async () => module.arrive());
    expect(screen.getByText('Hello Ada')).toBeInTheDocument();
    expect(screen.getByText('Hello Bob')).toBeInTheDocument();
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
