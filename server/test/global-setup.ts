import type { TestProject } from 'vitest/node';
import { migratedTemplate } from './template-database.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The migrated database every test database is copied from; '' on PGlite. */
    testDatabaseTemplate: string;
  }
}

/** Runs once before the test files: on PostgreSQL (TEST_DATABASE_URL), makes the template database. */
export default async function setup(project: TestProject): Promise<void> {
  const adminUrl = process.env.TEST_DATABASE_URL;
  project.provide('testDatabaseTemplate', adminUrl ? await migratedTemplate(adminUrl) : '');
}
