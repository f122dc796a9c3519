import type { Page } from '@playwright/test';
import { MONTHS } from '@ra/shared';

export interface SignUpDetails {
  role: 'Patient' | 'Physician';
  hospital?: string;
  title?: string;
  first: string;
  last: string;
  /** YYYY-MM-DD */
  dob: string;
  email: string;
  password: string;
}

export class SignUpPage {
  constructor(private readonly page: Page) {}

  async open() {
    await this.page.goto('/signup');
  }

  async signUp(details: SignUpDetails) {
    const [year, month, day] = details.dob.split('-');
    await this.page.getByLabel('Role').selectOption({ label: details.role });
    if (details.hospital) {
      await this.page.getByLabel('Hospital').selectOption({ label: details.hospital });
    }
    if (details.title) {
      await this.page.getByLabel('Title').selectOption({ label: details.title });
    }
    await this.page.getByLabel('First name').fill(details.first);
    await this.page.getByLabel('Last name').fill(details.last);
    await this.page.getByLabel('Month').selectOption({ label: MONTHS[Number(month) - 1]! });
    await this.page.getByLabel('Day').fill(String(Number(day)));
    await this.page.getByLabel('Year').fill(year!);
    await this.page.getByLabel('Email').fill(details.email);
    await this.page.getByLabel('Password').fill(details.password);
    await this.page.getByRole('button', { name: 'Sign Up' }).click();
  }
}
