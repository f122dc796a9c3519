import sharp from 'sharp';

/**
 * Process-wide sharp settings, applied once when app.ts imports this module. Medical images can be
 * hundreds of megapixels: libvips' operation cache would keep decoded pixels of past images in
 * memory, and one thread per core per image lets a few large images take every core the server
 * shares with its requests, so caching is off and each image is decoded by one thread.
 */
sharp.cache(false);
sharp.concurrency(1);
