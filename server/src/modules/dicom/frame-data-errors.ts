/**
 * Why the frames of an instance cannot be given. Each is its own class so the WADO-RS route maps them
 * to statuses without reading messages; `message` is for the log.
 */

/** A frame number outside 1…Number of Frames, no frame asked for, or an instance that is not an image. */
export class FrameNotFound extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'FrameNotFound';
  }
}

/**
 * The frames exist but cannot be given as asked: a compression no codec here decodes, a codestream
 * that disagrees with the image's attributes or fails to decode, fragments that cannot be told apart.
 */
export class FrameNotDecodable extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'FrameNotDecodable';
  }
}

/** A frame larger than `maxPixels`, or asked-for frames that together exceed `maxTotalBytes`. */
export class FramesTooLarge extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'FramesTooLarge';
  }
}
