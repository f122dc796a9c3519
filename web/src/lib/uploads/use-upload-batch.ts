import { useCallback, useEffect, useState } from 'react';
import { getAccessToken, refreshAccessTokenNow } from '../api-client';
import { fileKey, finishedUploadsIn } from './finished-uploads';
import { BATCH_FIRST_CHUNK_BYTES, UploadBatch, type BatchFile, type BatchSnapshot } from './upload-batch';
import { deleteUpload, UploadTask } from './upload-task';

/** Progress re-renders the page at most this often; a change of state re-renders it at once. */
export const PROGRESS_RENDER_MS = 100;

/**
 * Calls `listener` with the batch's snapshots: a new state at once, progress within the same state
 * at most every PROGRESS_RENDER_MS. A folder of hundreds of small files reports progress thousands
 * of times, and each page render costs the browser the time it needs to send the next file.
 */
export function subscribeThrottled(
  batch: Pick<UploadBatch, 'current' | 'subscribe'>,
  listener: (snapshot: BatchSnapshot) => void,
) {
  let shown = batch.current;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const show = () => {
    timer = undefined;
    shown = batch.current;
    listener(shown);
  };
  const unsubscribe = batch.subscribe((snapshot) => {
    if (snapshot.state !== shown.state) {
      clearTimeout(timer);
      show();
    } else {
      timer ??= setTimeout(show, PROGRESS_RENDER_MS);
    }
  });
  return () => {
    clearTimeout(timer);
    unsubscribe();
  };
}

/**
 * Runs one batch of uploads at a time and re-renders on its changes (see subscribeThrottled).
 * Finished uploads are remembered in the tab's session storage under the signed-in user.
 */
export function useUploadBatch(owner: string) {
  const [batch, setBatch] = useState<UploadBatch | null>(null);
  const [snapshot, setSnapshot] = useState<BatchSnapshot | null>(null);

  useEffect(() => (batch ? subscribeThrottled(batch, setSnapshot) : undefined), [batch]);

  const start = useCallback(
    (files: BatchFile[]) => {
      const next = new UploadBatch(files, {
        createTask: (file) =>
          new UploadTask(file.file, {
            purpose: file.purpose,
            name: file.path,
            getToken: getAccessToken,
            refreshToken: refreshAccessTokenNow,
            firstChunkBytes: BATCH_FIRST_CHUNK_BYTES,
          }),
        finished: finishedUploadsIn(window.sessionStorage, owner),
        deleteUpload: (url) => deleteUpload(url, getAccessToken),
      });
      setBatch(next);
      next.start();
      setSnapshot(next.current);
      return next;
    },
    [owner],
  );

  /** Whether this file was uploaded before (a reload ago) and will not be sent again. */
  const isFinished = useCallback(
    (file: BatchFile) =>
      finishedUploadsIn(window.sessionStorage, owner).get(fileKey(file.file, file.path)) !== null,
    [owner],
  );

  const reset = useCallback(() => {
    setBatch(null);
    setSnapshot(null);
  }, []);

  return { batch, snapshot, start, reset, isFinished };
}
