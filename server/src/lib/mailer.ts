import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import nodemailer from 'nodemailer';
import type { FastifyBaseLogger } from 'fastify';
import type { Queryable } from '../db/client.js';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  /** The one link the message carries; the outbox driver logs it so a developer can follow it. */
  link?: string;
}

/** A message as stored in the durable queue: its id and time make every delivery attempt the same mail. */
export interface QueuedMail extends MailMessage {
  id: string;
  queuedAt: string;
}

export interface Mailer {
  /**
   * Stores a message in the job queue; the send-email job delivers it, with retries, on any
   * instance, also after a crash. With `tx` (the transaction of the change that causes the
   * message) it is stored only if that change commits, and a failure rolls the change back.
   * Without it, the change is already committed: a failure to store is logged and retried, never
   * thrown, so the caller's request still succeeds.
   */
  enqueue(message: MailMessage, tx?: Queryable): Promise<void>;
  /** Resolves when no queued message is left undelivered (tests, and tools that wait for mail). */
  drain(): Promise<void>;
  /** Stops retrying; messages not stored by then are logged as lost. */
  close(): void;
}

/** Delivers one message, once; throws when it could not, so the job is retried. */
export interface MailTransport {
  deliver(mail: QueuedMail): Promise<void>;
}

/** Writes each message as an .eml file into `outboxDir`, for machines without SMTP. */
function outboxTransport(outboxDir: string, from: string, log: FastifyBaseLogger): MailTransport {
  const builder = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  return {
    async deliver(mail) {
      const info = await builder.sendMail({ ...envelopeOf(mail), from });
      await fs.mkdir(outboxDir, { recursive: true });
      // Named after the queued message, so a second attempt rewrites the same file.
      const file = path.join(outboxDir, `${mail.queuedAt.replace(/[:.]/g, '-')}-${mail.id}.eml`);
      await fs.writeFile(file, info.message as Buffer, { mode: 0o600 });
      // Links are logged only in outbox mode, where no real mail leaves the machine.
      log.info({ file, link: mail.link }, `email written to outbox: ${mail.subject}`);
    },
  };
}

function smtpTransport(smtpUrl: string, from: string): MailTransport {
  const transport = nodemailer.createTransport(smtpUrl);
  return {
    async deliver(mail) {
      await transport.sendMail({ ...envelopeOf(mail), from });
    },
  };
}

function envelopeOf(mail: QueuedMail) {
  return {
    to: mail.to,
    subject: mail.subject,
    text: mail.text,
    // A retry after a crash between the server's acceptance and the job's completion may send the
    // message twice; the same Message-ID lets mail clients show it once.
    messageId: `<${mail.id}@radiology-archive>`,
    date: new Date(mail.queuedAt),
  };
}

export function createMailTransport(options: {
  smtpUrl: string | undefined;
  outboxDir: string;
  from: string;
  log: FastifyBaseLogger;
}): MailTransport {
  return options.smtpUrl
    ? smtpTransport(options.smtpUrl, options.from)
    : outboxTransport(options.outboxDir, options.from, options.log);
}

/** What the mailer needs of the job queue. */
export interface MailQueue {
  store(mail: QueuedMail, tx: Queryable | undefined): Promise<void>;
  countUndelivered(): Promise<number>;
  wake(): void;
}

const RETRY_STORE_MS = 15_000;
const DRAIN_TIMEOUT_MS = 30_000;

export function createMailer(queue: MailQueue, log: FastifyBaseLogger): Mailer {
  // Messages whose change is committed but which the queue could not store yet.
  const unstored = new Map<string, QueuedMail>();
  let retryTimer: NodeJS.Timeout | undefined;

  function scheduleRetry() {
    retryTimer ??= setTimeout(() => {
      retryTimer = undefined;
      void retryUnstored();
    }, RETRY_STORE_MS);
    retryTimer.unref();
  }

  async function retryUnstored() {
    for (const mail of [...unstored.values()]) {
      try {
        // The job id is the message id: a message stored by an attempt that seemed to fail is
        // not stored twice.
        await queue.store(mail, undefined);
        unstored.delete(mail.id);
      } catch (err) {
        log.warn({ err, subject: mail.subject }, 'email not queued yet; retrying');
      }
    }
    if (unstored.size > 0) {
      scheduleRetry();
    }
  }

  return {
    async enqueue(message, tx) {
      const mail: QueuedMail = { ...message, id: crypto.randomUUID(), queuedAt: new Date().toISOString() };
      if (tx) {
        await queue.store(mail, tx);
        return;
      }
      try {
        await queue.store(mail, undefined);
      } catch (err) {
        log.error({ err, subject: mail.subject }, 'email not queued; retrying in the background');
        unstored.set(mail.id, mail);
        scheduleRetry();
      }
    },
    async drain() {
      const deadline = Date.now() + DRAIN_TIMEOUT_MS;
      while (unstored.size > 0 || (await queue.countUndelivered()) > 0) {
        if (Date.now() > deadline) {
          throw new Error('emails are still waiting to be delivered');
        }
        queue.wake();
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    },
    close() {
      clearTimeout(retryTimer);
      for (const mail of unstored.values()) {
        log.error(
          { to: mail.to, subject: mail.subject },
          'email lost: it could not be queued before shutdown',
        );
      }
    },
  };
}
