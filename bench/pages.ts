/**
 * npm run bench:pages: only the page-weight figures (the full `npm run bench` takes many minutes).
 * Starts the production server on a fresh embedded database with demo data and visits each page.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startAppServer, stopServers } from './lib/servers.js';
import { pageWeightFigures, printPageWeightTable } from './page-weight.bench.js';

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ra-bench-pages-'));
try {
  const base = await startAppServer(dataDir);
  printPageWeightTable(await pageWeightFigures(base));
} finally {
  await stopServers();
  fs.rmSync(dataDir, { recursive: true, force: true });
}
