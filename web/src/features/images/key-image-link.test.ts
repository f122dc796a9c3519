import { describe, expect, it } from 'vitest';
import { keyImageFromSearch, keyImagePath, windowLabel } from './key-image-link';

const keyImage = { sop_instance_uid: '1.2.840.5.7', frame: 3, window: { center: -600, width: 1500 } };

describe('key image links', () => {
  it('round-trips a key image through the page query', () => {
    const path = keyImagePath('7c0f0cde-8a36-4a0e-9b54-8d6f3f0f2a11', keyImage);
    const params = new URL(path, 'https://archive.test').searchParams;
    expect(params.get('image')).toBe('7c0f0cde-8a36-4a0e-9b54-8d6f3f0f2a11');
    expect(keyImageFromSearch(params)).toEqual(keyImage);
  });

  it('names no key image without an instance, or with a wrong frame or window', () => {
    expect(keyImageFromSearch(new URLSearchParams('image=x'))).toBeNull();
    expect(keyImageFromSearch(new URLSearchParams('instance=1.2.3&frame=0&center=1&width=2'))).toBeNull();
    expect(keyImageFromSearch(new URLSearchParams('instance=1.2.3&frame=1&center=1&width=-2'))).toBeNull();
    expect(keyImageFromSearch(new URLSearchParams('instance=not a uid&frame=1&center=1&width=2'))).toBeNull();
  });

  it('writes the window as the overlay does', () => {
    expect(windowLabel({ center: 39.5, width: 400.2 })).toBe('W 400 L 40');
  });
});
