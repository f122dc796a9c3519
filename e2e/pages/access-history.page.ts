import type { Page } from '@playwright/test';

/** The patient's Access History page (/access-history): a table of visits, When, Who and What. */
export class AccessHistoryPage {
  constructor(private readonly page: Page) {}

  heading() {
    return this.page.getByRole('heading', { level: 1 });
  }

  /** The visits (rows) whose Who cell reads exactly `who`. */
  visitsBy(who: string) {
    return this.page
      .getByRole('row')
      .filter({ has: this.page.getByRole('cell', { name: who, exact: true }) });
  }
}
