import { describe, expect, it } from 'vitest';
import { keyImageFromSearch, keyImagePath, windowLabel, keyImageLabel } from './key-image-link';

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

describe('key image labels', () => {
  const keyImage = {
    sop_instance_uid: '1.2.3.4',
    frame: 1,
    window: { center: 40, width: 400 },
  };

  it('say where the image is in the study, and its window', () => {
    const saved = { ...keyImage, series_number: 2, modality: 'CT', instance_number: 37 };
    expect(keyImageLabel(0, saved)).toBe('Key image 1: CT series 2, image 37 (W 400 L 40)');
    expect(keyImageLabel(1, { ...saved, frame: 12, modality: null })).toBe(
      'Key image 2: Series 2, image 37, frame 12 (W 400 L 40)',
    );
  });

  it('give the window alone while the place is unknown (marked, not saved yet)', () => {
    expect(keyImageLabel(2, keyImage)).toBe('Key image 3 (W 400 L 40)');
    const gone = { ...keyImage, series_number: null, modality: null, instance_number: null };
    expect(keyImageLabel(0, gone)).toBe('Key image 1 (W 400 L 40)');
  });
});
