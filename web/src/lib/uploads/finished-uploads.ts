/**
 * The URLs of a user's finished uploads, by file, for the tab's session: after a reload the same
 * files chosen again are not sent again. An upload stays the uploader's and usable for 24 hours
 * until it is claimed (docs/api.md §11.1), so it may be filed under whichever patient is chosen.
 */

const PREFIX = 'ra.finished-upload';

/** A file by its path in the chosen folder, size and date: the same file chosen again has the same key. */
export function fileKey(file: File, path: string): string {
  return `${path}|${file.size}|${file.lastModified}`;
}

export interface FinishedUploads {
  get(key: string): string | null;
  set(key: string, url: string): void;
  delete(key: string): void;
}

/** One storage entry per file, so that remembering each of thousands of files stays cheap. */
export function finishedUploadsIn(storage: Storage, owner: string): FinishedUploads {
  const entry = (key: string) => `${PREFIX}:${owner}:${key}`;
  let isFull = false;
  return {
    get: (key) => storage.getItem(entry(key)),
    set: (key, url) => {
      try {
        storage.setItem(entry(key), url);
      } catch (err) {
        // A full storage costs only the shortcut after a reload: the file would be sent again.
        if (!isFull) {
          console.warn('Finished uploads can no longer be remembered', err);
        }
        isFull = true;
      }
    },
    delete: (key) => storage.removeItem(entry(key)),
  };
}
