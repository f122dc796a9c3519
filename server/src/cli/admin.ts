import { loadConfig } from '../config.js';
import { openDatabase } from '../db/client.js';
import { findLockHolder } from '../lib/data-dir-lock.js';
import { RuleViolation } from '../lib/errors.js';
import { runAdminCommand, UsageError } from './admin-commands.js';

async function main(): Promise<number> {
  const config = loadConfig();
  if (!config.databaseUrl) {
    const holder = findLockHolder(config.dataDir);
    if (holder) {
      console.error(
        `The server (process ${holder}) has the embedded database in ${config.dataDir} open. ` +
          'Stop it (Ctrl+C), run this command, then start it again; or use DATABASE_URL to run both at once.',
      );
      return 1;
    }
  }
  const database = await openDatabase({
    databaseUrl: config.databaseUrl,
    dataDir: config.dataDir,
    poolSize: 1,
  });
  try {
    await database.migrate();
    const lines = await runAdminCommand(database.db, process.argv.slice(2));
    console.log(lines.join('\n'));
    return 0;
  } catch (err) {
    if (err instanceof UsageError || err instanceof RuleViolation) {
      console.error(err.message);
      return 2;
    }
    throw err;
  } finally {
    await database.close();
  }
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    console.error(`Failed: ${err instanceof Error ? err.message : String(err)}`);
    process.exit(1);
  },
);
