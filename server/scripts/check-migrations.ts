/**
 * Fails when the Drizzle schema and the committed migrations disagree: it copies the migrations
 * to a temporary folder, asks drizzle-kit to generate into it, and checks that nothing was added.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const serverDir = path.resolve(import.meta.dirname, '..');
const migrations = path.join(serverDir, 'src', 'db', 'migrations');
const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'ra-migrations-'));

try {
  fs.cpSync(migrations, scratch, { recursive: true });
  const before = fs.readdirSync(scratch, { recursive: true }).map(String).sort();
  // drizzle-kit wants a relative output folder.
  const out = path.relative(serverDir, scratch);
  const output = execFileSync(
    'npx',
    [
      'drizzle-kit',
      'generate',
      '--dialect',
      'postgresql',
      '--schema',
      './src/db/schema/index.ts',
      '--out',
      out,
    ],
    { cwd: serverDir, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] },
  );
  if (!/No schema changes|migration file/i.test(output)) {
    console.error(output);
    throw new Error('drizzle-kit generate did not finish');
  }
  const after = fs.readdirSync(scratch, { recursive: true }).map(String).sort();
  const added = after.filter((file) => !before.includes(file));
  if (added.length > 0) {
    console.error(
      `The schema has changes without a migration (${added.join(', ')}). Run: npm run db:generate`,
    );
    process.exit(1);
  }
  console.log('Migrations match the schema.');
} finally {
  fs.rmSync(scratch, { recursive: true, force: true });
}
