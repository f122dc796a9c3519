/** Why an image of a stack could not be shown: its frame never arrived, or arrived and could not be decoded. */
export type ImageFailure = 'fetch' | 'decode';

/**
 * What the image loader's rejection says went wrong. It rejects with the request itself (an
 * XMLHttpRequest or a Response) when the frame could not be fetched, or the browser's network
 * TypeError, and with the decoder's Error when it could not be decoded. A request that succeeded
 * (2xx) yet is the rejection was refused once fetched: its frame is unreadable.
 */
export function failureOf(error: unknown): ImageFailure {
  if (typeof error === 'object' && error !== null && 'status' in error && typeof error.status === 'number') {
    return error.status >= 200 && error.status < 300 ? 'decode' : 'fetch';
  }
  if (error instanceof TypeError && /fetch|network/i.test(error.message)) {
    return 'fetch';
  }
  return 'decode';
}

/** The words for an image that failed, numbered as the viewer numbers them (from 1). */
export function failureMessage(failure: ImageFailure, imageNumber: number): string {
  return failure === 'fetch'
    ? `Image ${imageNumber} could not be fetched from the archive.`
    : `Image ${imageNumber} could not be decoded: this browser cannot read its pixel data.`;
}
