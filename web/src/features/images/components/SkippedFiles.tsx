import type { SkippedFile } from '@ra/shared';

/** Lists longer than this start folded, and only this many of them are shown. */
const SHORT_LIST = 5;
const SHOWN_AT_MOST = 200;

/** Files that were not filed, with why; folded when the list is long. */
export function SkippedFiles({ files, summary }: { files: SkippedFile[]; summary: string }) {
  const hidden = files.length - SHOWN_AT_MOST;
  return (
    <details open={files.length <= SHORT_LIST} className="small mt-2">
      <summary>{summary}</summary>
      <ul className="mb-0 mt-1">
        {files.slice(0, SHOWN_AT_MOST).map((file, index) => (
          <li key={`${index}-${file.name}`}>
            <span className="text-break">{file.name}</span>: {file.reason}
          </li>
        ))}
        {hidden > 0 && <li>…and {hidden} more.</li>}
      </ul>
    </details>
  );
}
