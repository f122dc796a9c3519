import type { MailTransport, QueuedMail } from '../lib/mailer.js';
import type { JobDefinition } from './job-queue.js';

export const SEND_EMAIL_JOB = 'send-email';

/**
 * Delivers one queued email. It lives in the database until it is delivered, so a crash or a
 * restart loses nothing; a failed delivery is retried with growing delays (2 s doubling, about half
 * an hour in all). Delivering twice writes the same outbox file, or the same Message-ID over SMTP.
 */
export function sendEmailJob(transport: MailTransport): JobDefinition<QueuedMail> {
  return {
    name: SEND_EMAIL_JOB,
    retryLimit: 10,
    async handle(mail) {
      await transport.deliver(mail);
    },
  };
}
