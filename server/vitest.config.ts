import { defineConfig } from 'vitest/config';

/**
 * Test files that set process.env for the threads the app starts once per process (the part
 * readers read their bounds there): each runs in a process of its own.
 */
const ISOLATED = ['src/modules/reports/reported-annotations.test.ts'];

export default defineConfig({
  // @ra/shared's source, by the `paths` of tsconfig.base.json (plain Node reads shared/dist).
  resolve: { tsconfigPaths: true },
  test: {
    // The migrated template each test's database is copied from (test/template-database.ts).
    globalSetup: ['test/global-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Each file gets its own database; two workers match this machine's two cores.
    maxWorkers: 2,
    projects: [
      {
        extends: true,
        test: {
          name: 'server',
          include: ['src/**/*.test.ts', 'scripts/**/*.test.ts'],
          exclude: ISOLATED,
          // Files share their worker's loaded modules: each builds its own app on its own
          // database, and loading the server's modules again for each file took half the run.
          isolate: false,
        },
      },
      { extends: true, test: { name: 'isolated', include: ISOLATED } },
    ],
  },
});
