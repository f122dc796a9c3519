import type { ChosenFile } from './file-kind';

/** The chosen files of a file input, with their paths in the folder when a folder was chosen. */
export function chosenFilesOf(files: FileList | null): ChosenFile[] {
  return [...(files ?? [])].map((file) => ({ file, path: file.webkitRelativePath || file.name }));
}

function fileOf(entry: FileSystemFileEntry): Promise<File> {
  return new Promise((resolve, reject) => entry.file(resolve, reject));
}

/** Every entry of a folder: a reader gives them a hundred or so at a time, then an empty list. */
async function entriesOf(folder: FileSystemDirectoryEntry): Promise<FileSystemEntry[]> {
  const reader = folder.createReader();
  const all: FileSystemEntry[] = [];
  for (;;) {
    const some = await new Promise<FileSystemEntry[]>((resolve, reject) =>
      reader.readEntries(resolve, reject),
    );
    if (some.length === 0) {
      return all;
    }
    all.push(...some);
  }
}

async function filesUnder(entry: FileSystemEntry): Promise<ChosenFile[]> {
  if (entry.isFile) {
    // The same path a folder input gives (webkitRelativePath), so either way a file has one key.
    return [{ file: await fileOf(entry as FileSystemFileEntry), path: entry.fullPath.replace(/^\//, '') }];
  }
  if (entry.isDirectory) {
    const children = await entriesOf(entry as FileSystemDirectoryEntry);
    return (await Promise.all(children.map(filesUnder))).flat();
  }
  return [];
}

/**
 * The files of a drop, dropped folders walked through. The entries must be taken during the drop
 * event itself; a browser without them gives the dropped files only.
 */
export function chosenFilesOfDrop(data: DataTransfer): Promise<ChosenFile[]> {
  const items = [...(data.items ?? [])].filter((item) => item.kind === 'file');
  const entries = items
    .map((item) => item.webkitGetAsEntry?.() ?? null)
    .filter((entry): entry is FileSystemEntry => entry !== null);
  if (entries.length === 0 || entries.length < items.length) {
    return Promise.resolve(chosenFilesOf(data.files));
  }
  return Promise.all(entries.map(filesUnder)).then((lists) => lists.flat());
}
