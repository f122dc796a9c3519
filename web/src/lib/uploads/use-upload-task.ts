import { useCallback, useEffect, useState } from 'react';
import type { UploadPurpose } from '@ra/shared';
import { getAccessToken, refreshAccessTokenNow } from '../api-client';
import { UploadTask, type UploadSnapshot } from './upload-task';

/** Runs one upload task at a time and re-renders on each of its changes. */
export function useUploadTask(purpose: UploadPurpose) {
  const [task, setTask] = useState<UploadTask | null>(null);
  const [snapshot, setSnapshot] = useState<UploadSnapshot | null>(null);

  useEffect(() => (task ? task.subscribe(setSnapshot) : undefined), [task]);

  const start = useCallback(
    (file: File) => {
      const next = new UploadTask(file, {
        purpose,
        getToken: getAccessToken,
        refreshToken: refreshAccessTokenNow,
      });
      setTask(next);
      setSnapshot(next.current);
      void next.start();
      return next;
    },
    [purpose],
  );

  const reset = useCallback(() => {
    setTask(null);
    setSnapshot(null);
  }, []);

  return { task, snapshot, start, reset };
}
