import type { Page } from '@playwright/test';

export const DASHBOARD_CARDS = {
  Patient: ['View Medical Images', 'Invoice History', 'Get Second Opinion', 'Access History'],
  Physician: ['View Patient List', 'Add Patient', 'Upload Image', 'Incoming Studies'],
  Radiologist: ['View Patients', 'View Notifications', 'View Profile'],
} as const;

export class DashboardPage {
  constructor(private readonly page: Page) {}

  heading() {
    return this.page.getByRole('heading', { level: 1 });
  }

  card(name: string) {
    return this.page.getByRole('link', { name, exact: true });
  }
}
