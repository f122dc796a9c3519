import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { DOWNLOAD_PATHS, errorMessageSchema } from '@ra/shared';
import { setAccessToken } from '../lib/api-client';
import { DownloadButton } from './DownloadButton';

/*
 * The download control (docs/api.md §12.4) against a stubbed network: it sends the bearer token,
 * shows the bytes received and the percentage, saves the file under the server's name, resumes a
 * dropped download with Range and If-Range, and shows errors instead of swallowing them.
 */

const ITEM = '7d1f0e1a-1111-4222-8333-444455556666';
const PATH = DOWNLOAD_PATHS.item(ITEM);
const BYTES = new Uint8Array(Array.from({ length: 3000 }, (_, index) => index % 251));

interface Call {
  url: string;
  headers: Headers;
}

/** A body giving `chunks`, then failing when `failAfter` is set (a dropped connection). */
function body(chunks: Uint8Array[], failAfter = false): ReadableStream<Uint8Array> {
  let index = 0;
  return new ReadableStream({
    pull(controller) {
      if (index < chunks.length) {
        controller.enqueue(chunks[index]);
        index += 1;
      } else if (failAfter) {
        controller.error(new TypeError('network error'));
      } else {
        controller.close();
      }
    },
  });
}

const ZIP_HEADERS = {
  'content-type': 'application/zip',
  'content-length': String(BYTES.length),
  'content-disposition': 'attachment; filename="radiology-archive-study-2026-01-02-7d1f0e1a.zip"',
  etag: '"abc"',
};

function stub(...answers: (() => Response)[]) {
  const calls: Call[] = [];
  vi.stubGlobal('fetch', (url: string, init?: RequestInit) => {
    calls.push({ url, headers: new Headers(init?.headers) });
    const next = answers.shift();
    return next ? Promise.resolve(next()) : Promise.reject(new Error(`unexpected fetch ${url}`));
  });
  return calls;
}

let saved: Blob[];
beforeEach(() => {
  saved = [];
  setAccessToken('token-1');
  vi.stubGlobal(
    'URL',
    Object.assign(URL, {
      createObjectURL: (blob: Blob) => {
        saved.push(blob);
        return 'blob:zip';
      },
      revokeObjectURL: () => undefined,
    }),
  );
  vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => undefined);
});
afterEach(() => setAccessToken(null));

/** The bytes of the file handed to the browser (jsdom's Blob is read with a FileReader). */
function savedBytes(): Promise<Uint8Array> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(new Uint8Array(reader.result as ArrayBuffer));
    reader.onerror = () => reject(new Error(reader.error?.message ?? 'The file could not be read.'));
    reader.readAsArrayBuffer(saved[0]!);
  });
}

describe('DownloadButton', () => {
  it('downloads with the bearer token, shows progress and saves the file under its name', async () => {
    const calls = stub(
      () =>
        new Response(body([BYTES.subarray(0, 1500), BYTES.subarray(1500)]), {
          status: 200,
          headers: ZIP_HEADERS,
        }),
    );
    const names: string[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      names.push(this.download);
    });
    render(<DownloadButton path={PATH} label="Download" fallbackName="fallback.zip" />);
    await userEvent.click(screen.getByRole('button', { name: 'Download' }));
    expect(await screen.findByText('Download complete.')).toBeInTheDocument();
    expect(calls).toHaveLength(1);
    expect(calls[0]!.url).toBe(PATH);
    expect(calls[0]!.headers.get('authorization')).toBe('Bearer token-1');
    expect(calls[0]!.headers.get('range')).toBeNull();
    expect(names).toEqual(['radiology-archive-study-2026-01-02-7d1f0e1a.zip']);
    expect(await savedBytes()).toEqual(BYTES);
  });

  it('shows the bytes received and the percentage while the ZIP arrives', async () => {
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    let sent = 0;
    stub(
      () =>
        new Response(
          new ReadableStream({
            async pull(controller) {
              if (sent === 0) {
                controller.enqueue(BYTES.subarray(0, 1500));
                sent = 1;
                return;
              }
              await gate;
              controller.enqueue(BYTES.subarray(1500));
              controller.close();
            },
          }),
          { status: 200, headers: ZIP_HEADERS },
        ),
    );
    render(<DownloadButton path={PATH} label="Download my archive" fallbackName="a.zip" />);
    await userEvent.click(screen.getByRole('button', { name: 'Download my archive' }));
    const bar = await screen.findByRole('progressbar', { name: 'Download my archive progress' });
    await waitFor(() => expect(bar).toHaveAttribute('aria-valuenow', '50'));
    expect(screen.getByRole('button', { name: 'Downloading…' })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Cancel download' })).toBeInTheDocument();
    release();
    expect(await screen.findByText('Download complete.')).toBeInTheDocument();
  });

  it('resumes a dropped download from the last byte with Range and If-Range', async () => {
    const calls = stub(
      () => new Response(body([BYTES.subarray(0, 1000)], true), { status: 200, headers: ZIP_HEADERS }),
      () =>
        new Response(body([BYTES.subarray(1000)]), {
          status: 206,
          headers: { ...ZIP_HEADERS, 'content-length': '2000', 'content-range': 'bytes 1000-2999/3000' },
        }),
    );
    render(<DownloadButton path={PATH} label="Download" fallbackName="fallback.zip" />);
    await userEvent.click(screen.getByRole('button', { name: 'Download' }));
    expect(await screen.findByText('Download complete.')).toBeInTheDocument();
    expect(calls.map((call) => [call.headers.get('range'), call.headers.get('if-range')])).toEqual([
      [null, null],
      ['bytes=1000-', '"abc"'],
    ]);
    expect(await savedBytes()).toEqual(BYTES);
  });

  it('shows why a download was refused', async () => {
    const notFound = errorMessageSchema.parse({ error: 'Not found.' });
    stub(() => new Response(JSON.stringify(notFound), { status: 404 }));
    render(<DownloadButton path={PATH} label="Download" fallbackName="fallback.zip" />);
    await userEvent.click(screen.getByRole('button', { name: 'Download' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'This item does not exist or you may not download it.',
    );
    expect(saved).toHaveLength(0);
    expect(screen.getByRole('button', { name: 'Download' })).toBeEnabled();
  });

  it('writes straight to the file the user chose where the browser allows it', async () => {
    const calls = stub(
      () =>
        new Response(body([BYTES.subarray(0, 1000), BYTES.subarray(1000)]), {
          status: 200,
          headers: ZIP_HEADERS,
        }),
    );
    const written: Uint8Array[] = [];
    let closed = false;
    const picked: string[] = [];
    vi.stubGlobal('showSaveFilePicker', (options: { suggestedName: string }) => {
      picked.push(options.suggestedName);
      return Promise.resolve({
        createWritable: () =>
          Promise.resolve({
            write: (chunk: Uint8Array) => {
              written.push(chunk);
              return Promise.resolve();
            },
            close: () => {
              closed = true;
              return Promise.resolve();
            },
            abort: () => Promise.resolve(),
          }),
      });
    });
    render(<DownloadButton path={PATH} label="Download" fallbackName="radiology-archive.zip" />);
    await userEvent.click(screen.getByRole('button', { name: 'Download' }));
    expect(await screen.findByText('Download complete.')).toBeInTheDocument();
    expect(picked).toEqual(['radiology-archive.zip']);
    expect(calls).toHaveLength(1);
    expect(closed).toBe(true);
    expect(new Uint8Array(Buffer.concat(written))).toEqual(BYTES);
    // Nothing was gathered in memory.
    expect(saved).toHaveLength(0);
  });

  it('does nothing when the user closes the save dialog', async () => {
    const calls = stub();
    vi.stubGlobal('showSaveFilePicker', () => Promise.reject(new DOMException('closed', 'AbortError')));
    render(<DownloadButton path={PATH} label="Download" fallbackName="radiology-archive.zip" />);
    await userEvent.click(screen.getByRole('button', { name: 'Download' }));
    expect(calls).toHaveLength(0);
    expect(screen.getByRole('button', { name: 'Download' })).toBeEnabled();
    expect(screen.queryByRole('alert')).toBeNull();
  });
});
