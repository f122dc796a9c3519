import { defineConfig } from 'vitest/config';

export default defineConfig({
  // @ra/shared's source, by the `paths` of tsconfig.base.json (plain Node reads shared/dist).
  resolve: { tsconfigPaths: true },
  test: {
    include: ['src/**/*.test.ts', 'scripts/**/*.test.ts'],
    // On PostgreSQL, a migrated template each test's database is copied from (test/template-database.ts).
    globalSetup: ['test/global-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Each file gets its own database; two workers match this machine's two cores.
    maxWorkers: 2,
  },
});
