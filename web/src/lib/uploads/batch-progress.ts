/** The overall progress of a batch of uploads, as one bar shows it. */
export interface BatchProgress {
  bytesSent: number;
  bytesTotal: number;
  /** 0 to 100, floored; 100 only once every file is finished. */
  percent: number;
  filesDone: number;
  filesTotal: number;
}

/**
 * Adds up a batch: finished files count whole, the files on their way count what has been sent.
 * The server confirms a file only after its last bytes, so sent bytes alone never make 100%.
 */
export function batchProgress(counts: {
  bytesTotal: number;
  filesTotal: number;
  bytesOfFinishedFiles: number;
  filesDone: number;
  bytesSentOfOthers: number;
}): BatchProgress {
  const { bytesTotal, filesTotal, filesDone } = counts;
  const bytesSent = Math.min(counts.bytesOfFinishedFiles + counts.bytesSentOfOthers, bytesTotal);
  const isFinished = filesDone >= filesTotal;
  const share = bytesTotal > 0 ? Math.floor((bytesSent / bytesTotal) * 100) : 0;
  return {
    bytesSent: isFinished ? bytesTotal : bytesSent,
    bytesTotal,
    percent: isFinished ? 100 : Math.min(share, 99),
    filesDone,
    filesTotal,
  };
}

/** Sizes as the upload progress shows them, e.g. 48.2 MB. */
export function megabytes(bytes: number): string {
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}
