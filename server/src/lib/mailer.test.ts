import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pino } from 'pino';
import { createMailer } from './mailer.js';
import { readOutbox } from '../../test/outbox.js';

const log = pino({ level: 'silent' });

describe('mailer', () => {
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
    const mailer = createMailer({
      smtpUrl: `smtp://127.0.0.1:${port}`,
      outboxDir,
      from: 'Radiology Archive <no-reply@example.test>',
      log,
    });
    mailer.enqueue({
      to: 'someone@example.test',
      subject: 'Hello there',
      text: 'Open https://example.test/x',
    });
    await mailer.drain();
    expect(received).toHaveLength(1);
    expect(received[0]).toMatchObject({ from: 'no-reply@example.test', to: ['someone@example.test'] });
    expect(received[0]!.raw).toContain('Subject: Hello there');
    expect(fs.readdirSync(outboxDir)).toEqual([]);
  });

  it('writes an .eml file to the outbox without SMTP_URL', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ra-mail-'));
    const mailer = createMailer({
      smtpUrl: undefined,
      outboxDir: path.join(dataDir, 'outbox'),
      from: 'Radiology Archive <no-reply@example.test>',
      log,
    });
    mailer.enqueue({
      to: 'reader@example.test',
      subject: 'Written down',
      text: 'Body text',
      link: 'https://x',
    });
    await mailer.drain();
    const [mail] = readOutbox(dataDir);
    expect(mail).toMatchObject({ to: 'reader@example.test', subject: 'Written down' });
    expect(mail!.body).toContain('Body text');
  });
});
