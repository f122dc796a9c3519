import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import nodemailer from 'nodemailer';
import type { FastifyBaseLogger } from 'fastify';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  /** The one link the message carries; the outbox driver logs it so a developer can follow it. */
  link?: string;
}

export interface Mailer {
  /** Queues a message; sending happens off the request path. */
  enqueue(message: MailMessage): void;
  /** Resolves when every queued message has been handed over (used at shutdown and in tests). */
  drain(): Promise<void>;
}

interface Transport {
  send(raw: { from: string; to: string; subject: string; text: string }): Promise<string | undefined>;
}

/** Writes each message as an .eml file into `outboxDir`, for machines without SMTP. */
function outboxTransport(outboxDir: string): Transport {
  let sequence = 0;
  const builder = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  return {
    async send(mail) {
      const info = await builder.sendMail(mail);
      await fs.mkdir(outboxDir, { recursive: true });
      // The sequence keeps files of the same millisecond in the order they were sent.
      sequence += 1;
      const stamp = new Date().toISOString().replace(/[:.]/g, '-');
      const name = `${stamp}-${String(sequence).padStart(9, '0')}-${crypto.randomUUID()}.eml`;
      const file = path.join(outboxDir, name);
      await fs.writeFile(file, info.message as Buffer, { mode: 0o600 });
      return file;
    },
  };
}

function smtpTransport(smtpUrl: string): Transport {
  const transport = nodemailer.createTransport(smtpUrl);
  return {
    async send(mail) {
      await transport.sendMail(mail);
      return undefined;
    },
  };
}

const MAX_ATTEMPTS = 3;

export function createMailer(options: {
  smtpUrl: string | undefined;
  outboxDir: string;
  from: string;
  log: FastifyBaseLogger;
}): Mailer {
  const transport = options.smtpUrl ? smtpTransport(options.smtpUrl) : outboxTransport(options.outboxDir);
  const isOutbox = !options.smtpUrl;
  const pending = new Set<Promise<void>>();

  async function deliver(message: MailMessage): Promise<void> {
    for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt += 1) {
      try {
        const file = await transport.send({
          from: options.from,
          to: message.to,
          subject: message.subject,
          text: message.text,
        });
        // Links are logged only in outbox mode, where no real mail leaves the machine.
        if (isOutbox) {
          options.log.info({ file, link: message.link }, `email written to outbox: ${message.subject}`);
        }
        return;
      } catch (err) {
        options.log.warn({ err, attempt }, 'email delivery failed');
        await new Promise((resolve) => setTimeout(resolve, 200 * 2 ** attempt));
      }
    }
    options.log.error({ subject: message.subject }, 'email could not be delivered');
  }

  return {
    enqueue(message) {
      const job = deliver(message).finally(() => pending.delete(job));
      pending.add(job);
    },
    async drain() {
      while (pending.size > 0) {
        await Promise.all([...pending]);
      }
    },
  };
}
