import type { UploadSnapshot, UploadTask } from './upload-task';

export class UploadFailedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UploadFailedError';
  }
}

/**
 * Resolves with the finished upload's URL, or null when the user cancels it; rejects with the
 * task's error message when it fails. Pausing and resuming keep it waiting.
 */
export function waitForUpload(task: UploadTask): Promise<string | null> {
  return new Promise((resolve, reject) => {
    const unsubscribe = task.subscribe(handleChange);
    function handleChange(snapshot: UploadSnapshot) {
      if (snapshot.state === 'success' && snapshot.url) {
        unsubscribe();
        resolve(snapshot.url);
      } else if (snapshot.state === 'canceled') {
        unsubscribe();
        resolve(null);
      } else if (snapshot.state === 'error') {
        unsubscribe();
        reject(new UploadFailedError(snapshot.error ?? 'The upload failed.'));
      }
    }
    handleChange(task.current);
  });
}
