/**
 * What a WADO-RS retrieve's Accept header asks for (PS3.18 8.7.3): instances as
 * `multipart/related; type="application/dicom"`, frames as `multipart/related;
 * type="application/octet-stream"` (uncompressed unless `transfer-syntax=*` or the stored syntax
 * is named). The server never transcodes instances, so any syntax but the stored one is refused.
 */

export const EXPLICIT_LITTLE_ENDIAN = '1.2.840.10008.1.2.1';

interface MediaRange {
  type: string;
  params: Record<string, string>;
}

function parseAccept(accept: string | undefined): MediaRange[] {
  if (!accept || accept.trim() === '') {
    return [{ type: '*/*', params: {} }];
  }
  return accept.split(',').map((range) => {
    const [type = '', ...rest] = range.split(';');
    const params: Record<string, string> = {};
    for (const param of rest) {
      const at = param.indexOf('=');
      if (at > 0) {
        params[param.slice(0, at).trim().toLowerCase()] = param
          .slice(at + 1)
          .trim()
          .replace(/^"(.*)"$/, '$1');
      }
    }
    return { type: type.trim().toLowerCase(), params };
  });
}

const ANY = new Set(['*/*', 'multipart/*', 'multipart/related']);

/** Whether instances may be sent as stored (Part 10, in their own transfer syntax). */
export function acceptsStoredInstances(accept: string | undefined, storedSyntaxes: string[]): boolean {
  return parseAccept(accept).some(({ type, params }) => {
    if (!ANY.has(type)) {
      return false;
    }
    const partType = params.type?.toLowerCase();
    if (partType && partType !== 'application/dicom') {
      return false;
    }
    const syntax = params['transfer-syntax'];
    return !syntax || syntax === '*' || storedSyntaxes.every((stored) => stored === syntax);
  });
}

/**
 * For frames: 'stored' (each frame as stored), 'uncompressed' (decoded to little-endian pixels),
 * or undefined when nothing acceptable can be sent (406).
 */
export function frameEncodingFor(
  accept: string | undefined,
  storedSyntax: string,
): 'stored' | 'uncompressed' | undefined {
  let result: 'stored' | 'uncompressed' | undefined;
  for (const { type, params } of parseAccept(accept)) {
    if (!ANY.has(type)) {
      continue;
    }
    const partType = params.type?.toLowerCase() ?? 'application/octet-stream';
    const syntax = params['transfer-syntax'];
    if (syntax === '*' || (syntax === storedSyntax && partType !== 'application/octet-stream')) {
      return 'stored';
    }
    if (partType === 'application/octet-stream' && (!syntax || syntax === EXPLICIT_LITTLE_ENDIAN)) {
      result = 'uncompressed';
    }
  }
  return result;
}

/** Whether bulk data (`multipart/related; type="application/octet-stream"`, PS3.18 8.7.3.5) may be sent. */
export function acceptsBulkData(accept: string | undefined): boolean {
  return frameEncodingFor(accept, EXPLICIT_LITTLE_ENDIAN) !== undefined;
}
