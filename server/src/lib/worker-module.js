// How a worker thread's entry (decode-worker-entry.js, dicom-part-worker-entry.js) loads its
// module, from the compiled server or from the TypeScript source.
//
// - Compiled (`npm start` runs server/dist): the build compiles `<name>.ts` to `<name>.js` beside
//   the entry, which is imported as it is; tsx is never loaded.
// - Source (Vitest, `npm run dev`, `npm run admin`, all through tsx): there is no `<name>.js`
//   beside the entry. Node 20 does not hand a worker its parent's TypeScript loader, so the thread
//   registers tsx itself, with the server's tsconfig.json (whose `paths` send @ra/shared to its
//   source, as in the parent), and imports `<name>.ts`.
import fs from 'node:fs';
import { URL, fileURLToPath } from 'node:url';

/** Imports the module `name` (without extension) that sits beside `entryUrl`. */
export async function importWorkerModule(entryUrl, name) {
  const compiled = new URL(`./${name}.js`, entryUrl);
  if (fs.existsSync(compiled)) {
    return import(compiled.href);
  }
  const { register } = await import('tsx/esm/api');
  register({ tsconfig: fileURLToPath(new URL('../../tsconfig.json', import.meta.url)) });
  return import(new URL(`./${name}.ts`, entryUrl).href);
}
