import type { Page } from '@playwright/test';

/** The Profile page (/profile): view mode, edit mode and the Update Email modal. */
export class ProfilePage {
  constructor(private readonly page: Page) {}

  async open() {
    await this.page.goto('/profile');
  }

  photo() {
    return this.page.getByRole('img', { name: 'Your profile picture' });
  }

  async edit() {
    await this.page.getByRole('button', { name: 'Edit Profile' }).click();
  }

  async choosePicture(name: string, buffer: Buffer) {
    await this.page.getByLabel('Change Picture').setInputFiles({ name, mimeType: 'image/png', buffer });
  }

  bio() {
    return this.page.getByLabel('Bio');
  }

  saveButton() {
    return this.page.getByRole('button', { name: 'Save Changes' });
  }

  emailModal() {
    return this.page.getByRole('dialog', { name: 'Update Email' });
  }

  async submitEmail(email: string, password: string) {
    const modal = this.emailModal();
    await modal.getByLabel('New email').fill(email);
    await modal.getByLabel('Password').fill(password);
    await modal.getByRole('button', { name: 'Update Email' }).click();
  }
}
