/** What a storage key may look like, whichever driver keeps the file. */
const SAFE_KEY = /^[a-zA-Z0-9][a-zA-Z0-9/_.-]*$/;

/**
 * Refuses a key that could leave the store's root (a disk folder or a bucket prefix). Keys are made
 * by the server, but every driver checks them all the same, by this one rule.
 */
export function checkStorageKey(key: string): string {
  if (!SAFE_KEY.test(key) || key.split('/').includes('..')) {
    throw new Error(`unsafe storage key: ${key}`);
  }
  return key;
}
