import { randomBytes } from 'node:crypto';

/** A multipart body that cannot be read: the STOW-RS route answers 400 with `message`. */
export class MultipartError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'MultipartError';
  }
}

// RFC 2046 5.1.1: 1 to 70 of these characters, the last not a space.
const BOUNDARY = /^[0-9A-Za-z'()+_,\-./:=? ]{0,69}[0-9A-Za-z'()+_,\-./:=?]$/;
// Boundaries read may be longer than RFC 2046 allows: Orthanc's DICOMweb plugin (1.7) sends STOW-RS
// requests with 73 characters, two UUIDs joined by a hyphen. Up to 256 are taken.
const READ_BOUNDARY = /^[0-9A-Za-z'()+_,\-./:=? ]{0,255}[0-9A-Za-z'()+_,\-./:=?]$/;
// RFC 9110 5.6.2.
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;

export function isValidBoundary(boundary: string): boolean {
  return BOUNDARY.test(boundary);
}

export function isToken(text: string): boolean {
  return TOKEN.test(text);
}

/** A new boundary: 144 random bits in hex, which no part will contain by chance. */
export function newBoundary(): string {
  return randomBytes(18).toString('hex');
}

/** The Content-Type of a multipart/related body whose parts are `type` (PS3.18 8.6.1.2). */
export function multipartRelatedContentType(boundary: string, type = 'application/dicom'): string {
  if (!isValidBoundary(boundary)) {
    throw new RangeError("A multipart boundary is 1 to 70 letters, digits or '()+_,-./:=? and spaces.");
  }
  if (/["\\\r\n]/.test(type)) {
    throw new RangeError('A media type has no quotes, backslashes or line breaks.');
  }
  return `multipart/related; type="${type}"; boundary=${isToken(boundary) ? boundary : `"${boundary}"`}`;
}

// A media type's parameter: `; name=token` or `; name="quoted string"` (RFC 9110 5.6.6), read in place.
const PARAMETER =
  /[ \t]*;[ \t]*([!#$%&'*+\-.^_`|~0-9A-Za-z]+)[ \t]*=[ \t]*(?:"((?:[^"\\]|\\.)*)"|([^;"\s]*))[ \t]*/y;

/**
 * Splits `type/subtype; name=value; name="quoted value"` into the media type (lower case) and its
 * parameters (names in lower case). Returns undefined when the text is not of that form, or names a
 * parameter twice: two boundaries would leave it to chance which one the parts are split by.
 */
function parseMediaType(header: string): { mediaType: string; parameters: Map<string, string> } | undefined {
  const mediaType = /^[ \t]*([^;\s]+)[ \t]*/.exec(header);
  if (!mediaType) {
    return undefined;
  }
  const parameters = new Map<string, string>();
  let at = mediaType[0].length;
  // A trailing semicolon, which some clients write, ends the parameters too.
  while (!/^[ \t]*;?[ \t]*$/.test(header.slice(at))) {
    PARAMETER.lastIndex = at;
    const match = PARAMETER.exec(header);
    const name = match?.[1]?.toLowerCase();
    if (!match || !name || parameters.has(name)) {
      return undefined;
    }
    // In a quoted string a backslash quotes the character after it.
    parameters.set(name, match[2]?.replace(/\\(.)/g, '$1') ?? match[3] ?? '');
    at = PARAMETER.lastIndex;
  }
  return { mediaType: mediaType[1]!.toLowerCase(), parameters };
}

/**
 * The boundary and `type` of a request's `multipart/related` Content-Type. Throws MultipartError when
 * the header is of another media type or its boundary is missing or not one RFC 2046 allows (but
 * for its length, see READ_BOUNDARY).
 */
export function parseMultipartRelated(header: string | undefined): {
  boundary: string;
  type: string | undefined;
} {
  const parsed = parseMediaType(header ?? '');
  if (!parsed || parsed.mediaType !== 'multipart/related') {
    throw new MultipartError('The request is not multipart/related.');
  }
  const boundary = parsed.parameters.get('boundary');
  if (boundary === undefined || !READ_BOUNDARY.test(boundary)) {
    throw new MultipartError('The multipart/related Content-Type has no valid boundary.');
  }
  return { boundary, type: parsed.parameters.get('type') };
}
