import type { TestProject } from 'vitest/node';
import { migratedPgliteDump, migratedTemplate } from './template-database.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The migrated database every test database is copied from; '' on PGlite. */
    testDatabaseTemplate: string;
    /** On PGlite, the file of the migrated database every test database is loaded from; '' on PostgreSQL. */
    testPgliteTemplate: string;
  }
}

/** Runs once before the test files: makes the migrated template of every test's database. */
export default async function setup(project: TestProject): Promise<void> {
  const adminUrl = process.env.TEST_DATABASE_URL;
  project.provide('testDatabaseTemplate', adminUrl ? await migratedTemplate(adminUrl) : '');
  project.provide('testPgliteTemplate', adminUrl ? '' : await migratedPgliteDump());
}
