import type { ZipRange } from './zip-stream.js';

/**
 * The one range of a `Range: bytes=a-b`, `bytes=a-` or `bytes=-n` header over `size` bytes; null
 * when there is none or it cannot be read (the whole body is then sent, as HTTP allows), and
 * 'unsatisfiable' when it starts past the end.
 */
export function rangeOf(header: string | undefined, size: number): ZipRange | null | 'unsatisfiable' {
  const match = header === undefined ? null : /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!match || (match[1] === '' && match[2] === '')) {
    return null;
  }
  if (match[1] === '') {
    const suffix = Number(match[2]);
    return suffix === 0 ? 'unsatisfiable' : { start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(match[1]);
  const end = match[2] === '' ? size - 1 : Math.min(Number(match[2]), size - 1);
  if (match[2] !== '' && Number(match[2]) < start) {
    return null;
  }
  return start < size ? { start, end } : 'unsatisfiable';
}
