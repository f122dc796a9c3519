import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { StackProgress } from './StackProgress';

describe('StackProgress', () => {
  it('counts a failed image as done, so the bar ends when every image has loaded or failed', () => {
    const { rerender } = render(<StackProgress loaded={1} failed={[]} count={3} />);
    expect(screen.getByRole('status')).toHaveTextContent('Loaded 1 of 3 images');
    expect(screen.getByRole('progressbar', { name: 'Images loaded' })).toHaveAttribute('aria-valuenow', '1');

    rerender(<StackProgress loaded={1} failed={['decode']} count={3} />);
    expect(screen.getByRole('status')).toHaveTextContent(
      'Loaded 1 of 3 images · 1 of 3 images could not be decoded.',
    );
    expect(screen.getByRole('progressbar', { name: 'Images loaded' })).toHaveAttribute('aria-valuenow', '2');

    rerender(<StackProgress loaded={2} failed={['decode']} count={3} />);
    expect(screen.queryByRole('progressbar')).not.toBeInTheDocument();
    expect(screen.getByRole('status')).toHaveTextContent('1 of 3 images could not be decoded.');
  });

  it('says what went wrong: fetching, decoding, or both', () => {
    const { rerender } = render(<StackProgress loaded={0} failed={['fetch', 'fetch']} count={2} />);
    expect(screen.getByRole('status')).toHaveTextContent('2 of 2 images could not be fetched.');
    rerender(<StackProgress loaded={0} failed={['fetch', 'decode']} count={2} />);
    expect(screen.getByRole('status')).toHaveTextContent('2 of 2 images could not be fetched or decoded.');
  });

  it('shows nothing once every image has loaded', () => {
    const { container } = render(<StackProgress loaded={3} failed={[]} count={3} />);
    expect(container).toBeEmptyDOMElement();
  });
});
