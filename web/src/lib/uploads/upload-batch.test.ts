import { beforeEach, describe, expect, it, vi } from 'vitest';
import { dicomFile } from '../../test/files';
import { fileKey, finishedUploadsIn } from './finished-uploads';
import { UploadBatch, waitForBatch, type BatchFile, type BatchTask } from './upload-batch';
import type { UploadSnapshot } from './upload-task';

/** One file's upload, moved on by the test: the batch sees it only through the task interface. */
class StepTask implements BatchTask {
  current: UploadSnapshot;
  private readonly listeners = new Set<(snapshot: UploadSnapshot) => void>();
  readonly start = vi.fn(() => Promise.resolve());
  readonly discard = vi.fn(() => {
    this.set({ state: 'canceled' });
    return Promise.resolve();
  });

  constructor(readonly file: BatchFile) {
    this.current = {
      state: 'running',
      bytesSent: 0,
      bytesTotal: file.file.size,
      url: null,
      error: null,
      isResumed: false,
    };
  }

  subscribe(listener: (snapshot: UploadSnapshot) => void) {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  pause() {
    if (this.current.state === 'running') {
      this.set({ state: 'paused' });
    }
    return Promise.resolve();
  }

  resume() {
    if (this.current.state === 'paused') {
      this.set({ state: 'running' });
    }
  }

  retry() {
    if (this.current.state === 'error') {
      this.set({ state: 'running', error: null });
    }
  }

  send(bytesSent: number) {
    this.set({ bytesSent });
  }

  succeed() {
    this.set({ state: 'success', bytesSent: this.file.file.size, url: `/api/uploads/${this.file.path}` });
  }

  fail(error: string) {
    this.set({ state: 'error', error });
  }

  set(change: Partial<UploadSnapshot>) {
    this.current = { ...this.current, ...change };
    for (const listener of this.listeners) {
      listener(this.current);
    }
  }
}

const OWNER = '0b6f2f7e-2222-4a2b-8c3d-000000000002';

function filesOf(count: number, size = 1000): BatchFile[] {
  return Array.from({ length: count }, (_, index) => ({
    file: dicomFile(`IM${index}`, size),
    path: `CD/S1/IM${index}`,
    purpose: 'dicom',
  }));
}

function makeBatch(files: BatchFile[]) {
  const tasks: StepTask[] = [];
  const deleteUpload = vi.fn((_url: string) => Promise.resolve());
  const finished = finishedUploadsIn(sessionStorage, OWNER);
  const batch = new UploadBatch(files, {
    createTask: (file) => {
      const task = new StepTask(file);
      tasks.push(task);
      return task;
    },
    finished,
    deleteUpload,
  });
  return { batch, tasks, finished, deleteUpload };
}

function runningPaths(tasks: StepTask[]) {
  return tasks.filter((task) => task.current.state === 'running').map((task) => task.file.path);
}

beforeEach(() => sessionStorage.clear());

describe('UploadBatch', () => {
  it('sends three files at a time, adds up one progress, and gives the URLs in file order', async () => {
    const files = filesOf(5);
    const { batch, tasks, finished } = makeBatch(files);
    const done = waitForBatch(batch);
    batch.start();
    expect(runningPaths(tasks)).toEqual(['CD/S1/IM0', 'CD/S1/IM1', 'CD/S1/IM2']);
    expect(tasks.every((task) => task.start.mock.calls.length === 1)).toBe(true);

    tasks[0]!.send(500);
    tasks[1]!.send(250);
    expect(batch.current).toMatchObject({ bytesSent: 750, bytesTotal: 5000, percent: 15, filesDone: 0 });

    tasks[1]!.succeed();
    expect(batch.current).toMatchObject({ bytesSent: 1500, percent: 30, filesDone: 1, filesTotal: 5 });
    expect(runningPaths(tasks)).toEqual(['CD/S1/IM0', 'CD/S1/IM2', 'CD/S1/IM3']);
    expect(finished.get(fileKey(files[1]!.file, files[1]!.path))).toBe('/api/uploads/CD/S1/IM1');

    for (const task of [tasks[0]!, tasks[2]!, tasks[3]!]) {
      task.succeed();
    }
    expect(tasks).toHaveLength(5);
    expect(batch.current.state).toBe('running');
    tasks[4]!.succeed();
    expect(batch.current).toMatchObject({ state: 'success', percent: 100, filesDone: 5, bytesSent: 5000 });
    expect(await done).toEqual(files.map((file) => `/api/uploads/${file.path}`));
  });

  it('counts the files a bundle holds, not the bundle, in what it shows', async () => {
    const [zip, bundle] = filesOf(2);
    const { batch, tasks } = makeBatch([zip!, { ...bundle!, purpose: 'dicom-bundle', count: 40 }]);
    batch.start();
    expect(batch.current).toMatchObject({ filesTotal: 41, filesDone: 0 });
    tasks[1]!.succeed();
    expect(batch.current).toMatchObject({ filesTotal: 41, filesDone: 40, state: 'running' });
    tasks[0]!.succeed();
    expect(batch.current).toMatchObject({ filesDone: 41, state: 'success' });
  });

  it('does not send again the files that finished before a reload', async () => {
    const files = filesOf(4);
    const earlier = finishedUploadsIn(sessionStorage, OWNER);
    earlier.set(fileKey(files[0]!.file, files[0]!.path), '/api/uploads/earlier-0');
    earlier.set(fileKey(files[2]!.file, files[2]!.path), '/api/uploads/earlier-2');
    // Another file of the same name, size and date in another folder is another file.
    const twin = { ...files[1]!, path: 'CD/S2/IM1' };
    earlier.set(fileKey(twin.file, twin.path), '/api/uploads/twin');

    const { batch, tasks } = makeBatch(files);
    const done = waitForBatch(batch);
    batch.start();
    expect(tasks.map((task) => task.file.path)).toEqual(['CD/S1/IM1', 'CD/S1/IM3']);
    expect(batch.current).toMatchObject({ filesRemembered: 2, filesDone: 2, bytesSent: 2000, percent: 50 });
    tasks[0]!.succeed();
    tasks[1]!.succeed();
    expect(await done).toEqual([
      '/api/uploads/earlier-0',
      '/api/uploads/CD/S1/IM1',
      '/api/uploads/earlier-2',
      '/api/uploads/CD/S1/IM3',
    ]);
  });

  it('is finished at once when every file was sent before', async () => {
    const files = filesOf(2);
    const earlier = finishedUploadsIn(sessionStorage, OWNER);
    files.forEach((file, index) => earlier.set(fileKey(file.file, file.path), `/api/uploads/${index}`));
    const { batch, tasks } = makeBatch(files);
    batch.start();
    expect(tasks).toHaveLength(0);
    expect(await waitForBatch(batch)).toEqual(['/api/uploads/0', '/api/uploads/1']);
  });

  it('pauses every running file and starts none until resumed', async () => {
    const { batch, tasks } = makeBatch(filesOf(5));
    batch.start();
    await batch.pause();
    expect(batch.current.state).toBe('paused');
    expect(runningPaths(tasks)).toEqual([]);
    // A file that was finishing when the pause came does not start another.
    tasks[0]!.succeed();
    expect(tasks).toHaveLength(3);

    batch.resume();
    expect(batch.current.state).toBe('running');
    expect(runningPaths(tasks)).toEqual(['CD/S1/IM1', 'CD/S1/IM2', 'CD/S1/IM3']);
  });

  it('shows the first error, starts no new file, and goes on after Try again', () => {
    const { batch, tasks } = makeBatch(filesOf(5));
    batch.start();
    tasks[1]!.fail('The upload failed. Check your connection and try again.');
    expect(batch.current).toMatchObject({
      state: 'error',
      error: 'The upload failed. Check your connection and try again.',
    });
    tasks[0]!.succeed();
    expect(tasks).toHaveLength(3);

    batch.retry();
    expect(batch.current).toMatchObject({ state: 'running', error: null });
    expect(runningPaths(tasks)).toEqual(['CD/S1/IM1', 'CD/S1/IM2', 'CD/S1/IM3']);
  });

  it('cancels as a whole: every upload deleted, the earlier ones too, and nothing remembered', async () => {
    const files = filesOf(4);
    finishedUploadsIn(sessionStorage, OWNER).set(fileKey(files[3]!.file, files[3]!.path), '/api/uploads/old');
    const { batch, tasks, deleteUpload } = makeBatch(files);
    const done = waitForBatch(batch);
    batch.start();
    tasks[0]!.succeed();
    await batch.pause();
    await batch.cancel();
    expect(batch.current.state).toBe('canceled');
    expect(tasks.map((task) => task.discard.mock.calls.length)).toEqual([1, 1, 1]);
    expect(deleteUpload.mock.calls).toEqual([['/api/uploads/old']]);
    expect(sessionStorage.length).toBe(0);
    expect(await done).toBeNull();
  });
});
