import { useCallback, useEffect, useState } from 'react';
import { getAccessToken, refreshAccessTokenNow } from '../api-client';
import { finishedUploadsIn } from './finished-uploads';
import { UploadBatch, type BatchFile, type BatchSnapshot } from './upload-batch';
import { deleteUpload, UploadTask } from './upload-task';

/**
 * Runs one batch of uploads at a time and re-renders on each of its changes. Finished uploads are
 * remembered in the tab's session storage under the signed-in user.
 */
export function useUploadBatch(owner: string) {
  const [batch, setBatch] = useState<UploadBatch | null>(null);
  const [snapshot, setSnapshot] = useState<BatchSnapshot | null>(null);

  useEffect(() => (batch ? batch.subscribe(setSnapshot) : undefined), [batch]);

  const start = useCallback(
    (files: BatchFile[]) => {
      const next = new UploadBatch(files, {
        createTask: (file) =>
          new UploadTask(file.file, {
            purpose: file.purpose,
            name: file.path,
            getToken: getAccessToken,
            refreshToken: refreshAccessTokenNow,
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

  const reset = useCallback(() => {
    setBatch(null);
    setSnapshot(null);
  }, []);

  return { batch, snapshot, start, reset };
}
