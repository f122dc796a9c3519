import { inParallel, type UploadPurpose } from '@ra/shared';
import { batchProgress, type BatchProgress } from './batch-progress';
import { fileKey, type FinishedUploads } from './finished-uploads';
import type { UploadSnapshot, UploadTask, UploadTaskState } from './upload-task';

/** One file of a batch, with its path in the chosen folder and how the server is to read it. */
export interface BatchFile {
  file: File;
  path: string;
  purpose: Extract<UploadPurpose, 'dicom' | 'dicom-zip' | 'dicom-bundle'>;
  /** The files it holds, for the counts shown: more than one for a bundle (dicom-bundle.ts). */
  count?: number;
}

/** The files an upload of the batch holds. */
function filesIn(file: BatchFile): number {
  return file.count ?? 1;
}

export interface BatchSnapshot extends BatchProgress {
  /** The states of one upload task (docs/architecture.md §12.1), for the batch as a whole. */
  state: UploadTaskState;
  /** Files finished before this batch began (chosen again after a reload), not sent again. */
  filesRemembered: number;
  /** Files whose upload went on from where an earlier one stopped. */
  filesResumed: number;
  /** The finished uploads' URLs, in the order of the files, once every file is finished. */
  urls: string[] | null;
  /** The first error while a file has failed; the others go on, and no new one starts. */
  error: string | null;
}

/** What the batch needs of one file's upload; an UploadTask is one. */
export type BatchTask = Pick<
  UploadTask,
  'current' | 'subscribe' | 'start' | 'pause' | 'resume' | 'retry' | 'discard'
>;

export interface UploadBatchOptions {
  createTask: (file: BatchFile) => BatchTask;
  /** Where finished uploads are remembered for a retry after a reload. */
  finished: FinishedUploads;
  /** Has the server delete a finished upload of an earlier page, whose task is gone. */
  deleteUpload: (url: string) => Promise<void>;
  /** Files sent at once. */
  concurrency?: number;
}

interface Entry {
  file: BatchFile;
  key: string;
  task: BatchTask | null;
  url: string | null;
  bytesSent: number;
  isResumed: boolean;
}

export const FILES_AT_ONCE = 3;
/** A DICOM slice (a few hundred KiB) goes in one request; larger files continue resumably. */
export const BATCH_FIRST_CHUNK_BYTES = 4 * 1024 * 1024;

/**
 * Many files uploaded as one: a few at a time, one overall progress, and pause, resume and cancel
 * of the whole. Each finished file is remembered, so the same files chosen after a reload are not
 * sent again, and a file stopped half-way resumes through its task's fingerprint.
 */
export class UploadBatch {
  private snapshot: BatchSnapshot;
  private readonly listeners = new Set<(snapshot: BatchSnapshot) => void>();
  private readonly entries: Entry[];
  /** Files started and not finished (running, paused or failed), with their tasks. */
  private readonly started = new Map<Entry, BatchTask>();
  private nextIndex = 0;
  private bytesOfFinishedFiles = 0;
  private filesDone = 0;
  private uploadsDone = 0;
  private readonly bytesTotal: number;

  constructor(
    files: BatchFile[],
    private readonly options: UploadBatchOptions,
  ) {
    this.entries = files.map((file) => ({
      file,
      key: fileKey(file.file, file.path),
      task: null,
      url: null,
      bytesSent: 0,
      isResumed: false,
    }));
    this.bytesTotal = files.reduce((sum, { file }) => sum + file.size, 0);
    this.snapshot = {
      ...this.progress(),
      state: 'running',
      filesRemembered: 0,
      filesResumed: 0,
      urls: null,
      error: null,
    };
  }

  get current(): BatchSnapshot {
    return this.snapshot;
  }

  subscribe(listener: (snapshot: BatchSnapshot) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  start(): void {
    let filesRemembered = 0;
    for (const entry of this.entries) {
      const url = this.options.finished.get(entry.key);
      if (url) {
        filesRemembered += filesIn(entry.file);
        this.finish(entry, url);
      }
    }
    this.update({ filesRemembered });
    this.fill();
  }

  async pause(): Promise<void> {
    if (this.snapshot.state !== 'running') {
      return;
    }
    this.update({ state: 'pausing' });
    await Promise.all([...this.started.values()].map((task) => task.pause()));
    // A resume or cancel may have come while the requests were stopping, or the last file finished.
    if (this.current.state === 'pausing') {
      this.update({ state: 'paused' });
    }
  }

  resume(): void {
    if (this.snapshot.state !== 'paused' && this.snapshot.state !== 'pausing') {
      return;
    }
    this.update({ state: 'running' });
    for (const task of this.started.values()) {
      task.resume();
    }
    this.fill();
  }

  /** After a file failed: try it again from where the server has it, and go on with the rest. */
  retry(): void {
    if (this.snapshot.state !== 'error') {
      return;
    }
    this.update({ state: 'running', error: null });
    for (const task of this.started.values()) {
      // A file paused while another failed goes on too.
      task.retry();
      task.resume();
    }
    this.fill();
  }

  /**
   * Stops every file and has the server delete what it received, the finished files too. Unlike
   * one file's upload, a paused or failed batch can be canceled: it may hold many finished files.
   */
  async cancel(): Promise<void> {
    if (['canceling', 'canceled', 'success'].includes(this.snapshot.state)) {
      return;
    }
    this.update({ state: 'canceling' });
    this.forgetFinished();
    await inParallel(this.entries, FILES_AT_ONCE * 2, async (entry) => {
      if (entry.task) {
        await entry.task.discard();
      } else if (entry.url) {
        await this.options.deleteUpload(entry.url).catch((err: unknown) => {
          console.error('Deleting the upload failed', err);
        });
      }
    });
    this.update({ state: 'canceled' });
  }

  /** Once the uploads are filed they cannot be used again: the next choice of these files sends them. */
  forgetFinished(): void {
    for (const entry of this.entries) {
      this.options.finished.delete(entry.key);
    }
  }

  private fill(): void {
    const limit = this.options.concurrency ?? FILES_AT_ONCE;
    while (this.snapshot.state === 'running' && this.started.size < limit) {
      const entry = this.entries[this.nextIndex];
      if (!entry) {
        return;
      }
      this.nextIndex += 1;
      if (entry.url === null) {
        this.launch(entry);
      }
    }
  }

  private launch(entry: Entry): void {
    const task = this.options.createTask(entry.file);
    entry.task = task;
    this.started.set(entry, task);
    task.subscribe((snapshot) => this.handleTaskChange(entry, snapshot));
    void task.start();
  }

  private handleTaskChange(entry: Entry, task: UploadSnapshot): void {
    const state = this.snapshot.state;
    if (state === 'canceling' || state === 'canceled') {
      return;
    }
    if (task.isResumed && !entry.isResumed) {
      entry.isResumed = true;
      this.update({ filesResumed: this.snapshot.filesResumed + filesIn(entry.file) });
    }
    if (task.state === 'success' && task.url && entry.url === null) {
      this.options.finished.set(entry.key, task.url);
      this.finish(entry, task.url);
      this.fill();
      return;
    }
    if (task.state === 'error' && state !== 'error') {
      this.update({ state: 'error', error: task.error });
      return;
    }
    entry.bytesSent = task.bytesSent;
    this.update({});
  }

  private finish(entry: Entry, url: string): void {
    entry.url = url;
    this.started.delete(entry);
    this.bytesOfFinishedFiles += entry.file.file.size;
    this.filesDone += filesIn(entry.file);
    this.uploadsDone += 1;
    if (this.uploadsDone === this.entries.length) {
      this.update({ state: 'success', urls: this.entries.map((each) => each.url ?? '') });
    } else {
      this.update({});
    }
  }

  private progress(): BatchProgress {
    let bytesSentOfOthers = 0;
    for (const entry of this.started.keys()) {
      bytesSentOfOthers += entry.bytesSent;
    }
    return batchProgress({
      bytesTotal: this.bytesTotal,
      filesTotal: this.entries.reduce((sum, entry) => sum + filesIn(entry.file), 0),
      bytesOfFinishedFiles: this.bytesOfFinishedFiles,
      filesDone: this.filesDone,
      bytesSentOfOthers,
    });
  }

  private update(change: Partial<BatchSnapshot>): void {
    this.snapshot = { ...this.snapshot, ...change, ...this.progress() };
    for (const listener of this.listeners) {
      listener(this.snapshot);
    }
  }
}

/** Resolves with the URLs of every file once all are uploaded, or null when the batch is canceled. */
export function waitForBatch(batch: UploadBatch): Promise<string[] | null> {
  return new Promise((resolve) => {
    const unsubscribe = batch.subscribe(handleChange);
    function handleChange(snapshot: BatchSnapshot) {
      if (snapshot.state === 'success' && snapshot.urls) {
        unsubscribe();
        resolve(snapshot.urls);
      } else if (snapshot.state === 'canceled') {
        unsubscribe();
        resolve(null);
      }
    }
    handleChange(batch.current);
  });
}
