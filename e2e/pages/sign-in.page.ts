import type { Page } from '@playwright/test';

export class SignInPage {
  constructor(private readonly page: Page) {}

  async open(role: 'Patient' | 'Physician' | 'Radiologist' = 'Patient') {
    await this.page.goto(`/signin?role=${role}`);
  }

  async signIn(email: string, password: string) {
    await this.page.getByLabel('Email').fill(email);
    await this.page.getByLabel('Password').fill(password);
    await this.page.getByRole('button', { name: 'Log In' }).click();
  }

  alert() {
    return this.page.getByRole('alert');
  }
}
