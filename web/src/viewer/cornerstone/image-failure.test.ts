import { describe, expect, it } from 'vitest';
import { failureMessage, failureOf } from './image-failure';

describe('failureOf', () => {
  it('puts a request that failed down to fetching', () => {
    expect(failureOf({ status: 404, readyState: 4 })).toBe('fetch');
    expect(failureOf({ status: 0, readyState: 4 })).toBe('fetch');
    expect(failureOf(new TypeError('Failed to fetch'))).toBe('fetch');
  });

  it('puts any other error down to decoding', () => {
    expect(failureOf(new Error('openjpeg: expected a SIZ marker'))).toBe('decode');
    expect(failureOf('wasm trap')).toBe('decode');
    // Fetched, then refused before decoding (its codestream is unreadable).
    expect(failureOf({ status: 200, readyState: 4 })).toBe('decode');
    expect(failureOf(undefined)).toBe('decode');
  });
});

describe('failureMessage', () => {
  it('names the image and what went wrong', () => {
    expect(failureMessage('decode', 3)).toBe(
      'Image 3 could not be decoded: this browser cannot read its pixel data.',
    );
    expect(failureMessage('fetch', 1)).toBe('Image 1 could not be fetched from the archive.');
  });
});
