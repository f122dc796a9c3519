import type { Page } from '@playwright/test';

/** The patient's Access History page (/access-history): a table of When, Who and What. */
export class AccessHistoryPage {
  constructor(private readonly page: Page) {}

  heading() {
    return this.page.getByRole('heading', { level: 1 });
  }

  /** The rows whose Who and What cells read exactly `who` and `what`. */
  rows(who: string, what: string) {
    return this.page
      .getByRole('row')
      .filter({ has: this.page.getByRole('cell', { name: who, exact: true }) })
      .filter({ has: this.page.getByRole('cell', { name: what, exact: true }) });
  }
}
