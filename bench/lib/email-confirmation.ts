import { readOutbox } from '../../server/test/outbox.js';
import { Api } from './api.js';

const CONFIRMATION_LINK = /https?:\/\/\S+\/verify-email\?token=[^&\s]+/;
const WAIT_MS = 120_000;

/**
 * Confirms new accounts' addresses with the links the server emailed them (the bench server
 * writes emails to DATA_DIR/outbox): an unconfirmed patient sees no records and cannot be linked
 * by a physician. Emails are sent by a background job, so the outbox is read until all are there.
 */
export async function confirmEmails(base: string, dataDir: string, emails: string[]): Promise<void> {
  const pending = new Set(emails);
  const until = Date.now() + WAIT_MS;
  while (pending.size > 0) {
    for (const mail of readOutbox(dataDir)) {
      const link = CONFIRMATION_LINK.exec(mail.body)?.[0];
      if (link && pending.delete(mail.to)) {
        const token = new URL(link).searchParams.get('token');
        await new Api(base).json('POST', '/api/auth/verify-email', { token });
      }
    }
    if (pending.size > 0) {
      if (Date.now() > until) {
        throw new Error(`no confirmation email for ${pending.size} accounts after ${WAIT_MS / 1000} s`);
      }
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
}
