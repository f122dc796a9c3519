import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { SMTPServer } from 'smtp-server';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { pino } from 'pino';
import { createMailer, createMailTransport, type MailQueue, type QueuedMail } from './mailer.js';
import { readOutbox } from '../../test/outbox.js';
import type { Queryable } from '../db/client.js';

const log = pino({ level: 'silent' });
const from = 'Radiology Archive <no-reply@example.test>';

function queuedMail(overrides: Partial<QueuedMail> = {}): QueuedMail {
  return {
    id: '0b6f7c1e-8d9a-4c2b-9e1f-3a4b5c6d7e8f',
    queuedAt: '2025-06-07T08:09:10.111Z',
    to: 'someone@example.test',
    subject: 'Hello there',
    text: 'Open https://example.test/x',
    ...overrides,
  };
}

describe('mail transports', () => {
  let server: SMTPServer;
  let port = 0;
  const received: { from: string; to: string[]; raw: string }[] = [];

  beforeAll(async () => {
    server = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      onData(stream, session, callback) {
        let raw = '';
        stream.on('data', (chunk: Buffer) => (raw += chunk.toString()));
        stream.on('end', () => {
          received.push({
            from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
            to: session.envelope.rcptTo.map((r) => r.address),
            raw,
          });
          callback();
        });
      },
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.server.address() as { port: number }).port;
  });
  afterAll(async () => {
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  it('sends through SMTP when SMTP_URL is set, and writes nothing to the outbox', async () => {
    const outboxDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ra-mail-'));
    const transport = createMailTransport({ smtpUrl: `smtp://127.0.0.1:${port}`, outboxDir, from, log });
    await transport.deliver(queuedMail());
    expect(received).toHaveLength(1);
    expect(received[0]).toMatchObject({ from: 'no-reply@example.test', to: ['someone@example.test'] });
    expect(received[0]!.raw).toContain('Subject: Hello there');
    // Every attempt carries the same Message-ID, so a repeated delivery shows as one message.
    expect(received[0]!.raw).toContain(
      'Message-ID: <0b6f7c1e-8d9a-4c2b-9e1f-3a4b5c6d7e8f@radiology-archive>',
    );
    expect(fs.readdirSync(outboxDir)).toEqual([]);
  });

  it('fails, for the job to retry, when the SMTP server cannot be reached', async () => {
    const transport = createMailTransport({
      smtpUrl: 'smtp://127.0.0.1:1',
      outboxDir: fs.mkdtempSync(path.join(os.tmpdir(), 'ra-mail-')),
      from,
      log,
    });
    await expect(transport.deliver(queuedMail())).rejects.toThrow();
  });

  it('writes one .eml file per message to the outbox without SMTP_URL, the same file on a second attempt', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ra-mail-'));
    const transport = createMailTransport({
      smtpUrl: undefined,
      outboxDir: path.join(dataDir, 'outbox'),
      from,
      log,
    });
    const mail = queuedMail({
      to: 'reader@example.test',
      subject: 'Written down',
      text: 'Body text',
      link: 'https://x',
    });
    await transport.deliver(mail);
    await transport.deliver(mail);
    const mails = readOutbox(dataDir);
    expect(mails).toHaveLength(1);
    expect(mails[0]).toMatchObject({ to: 'reader@example.test', subject: 'Written down' });
    expect(mails[0]!.body).toContain('Body text');
  });
});

describe('the mailer', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('stores a message inside the given transaction and lets a failure there roll it back', async () => {
    const stored: { mail: QueuedMail; tx: Queryable | undefined }[] = [];
    const tx = {} as Queryable;
    const mailer = createMailer(
      {
        store: (mail, inTx) => Promise.resolve(void stored.push({ mail, tx: inTx })),
        countUndelivered: () => Promise.resolve(0),
        wake: () => undefined,
      },
      log,
    );
    await mailer.enqueue({ to: 'a@example.test', subject: 'S', text: 'T' }, tx);
    expect(stored[0]?.tx).toBe(tx);
    expect(stored[0]?.mail).toMatchObject({ to: 'a@example.test', subject: 'S', text: 'T' });
    expect(stored[0]?.mail.id).toMatch(/^[0-9a-f-]{36}$/);

    const failing = createMailer(
      {
        store: () => Promise.reject(new Error('queue down')),
        countUndelivered: () => Promise.resolve(0),
        wake: () => undefined,
      },
      log,
    );
    await expect(failing.enqueue({ to: 'a@example.test', subject: 'S', text: 'T' }, tx)).rejects.toThrow(
      'queue down',
    );
  });

  it('never fails a committed change: a message the queue refuses is stored again later', async () => {
    vi.useFakeTimers();
    let isQueueDown = true;
    const stored: QueuedMail[] = [];
    const queue: MailQueue = {
      store: (mail) =>
        isQueueDown ? Promise.reject(new Error('queue down')) : Promise.resolve(void stored.push(mail)),
      countUndelivered: () => Promise.resolve(0),
      wake: () => undefined,
    };
    const mailer = createMailer(queue, log);
    await mailer.enqueue({ to: 'b@example.test', subject: 'Later', text: 'T' });
    expect(stored).toEqual([]);
    await vi.advanceTimersByTimeAsync(20_000);
    expect(stored).toEqual([]);
    isQueueDown = false;
    await vi.advanceTimersByTimeAsync(20_000);
    expect(stored.map((mail) => mail.subject)).toEqual(['Later']);
    mailer.close();
  });
});
