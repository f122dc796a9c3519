import fs from 'node:fs';
import path from 'node:path';

export interface OutboxMail {
  file: string;
  to: string;
  subject: string;
  body: string;
}

function decodeQuotedPrintable(text: string): string {
  const bytes = text
    .replace(/=\r?\n/g, '')
    .replace(/=([0-9A-F]{2})/gi, (_match, hex: string) => String.fromCharCode(parseInt(hex, 16)));
  return Buffer.from(bytes, 'latin1').toString('utf8');
}

/** Reads the .eml files the outbox mailer wrote, oldest first. */
export function readOutbox(dataDir: string): OutboxMail[] {
  const dir = path.join(dataDir, 'outbox');
  if (!fs.existsSync(dir)) {
    return [];
  }
  return fs
    .readdirSync(dir)
    .filter((name) => name.endsWith('.eml'))
    .sort()
    .map((name) => {
      const raw = fs.readFileSync(path.join(dir, name), 'utf8');
      const [head = '', ...rest] = raw.split(/\r?\n\r?\n/);
      const header = (key: string) => new RegExp(`^${key}: (.*)$`, 'mi').exec(head)?.[1]?.trim() ?? '';
      const isQuotedPrintable = /content-transfer-encoding: quoted-printable/i.test(head);
      const body = rest.join('\n\n');
      return {
        file: name,
        to: header('To'),
        subject: header('Subject'),
        body: isQuotedPrintable ? decodeQuotedPrintable(body) : body,
      };
    });
}

/** The first http(s) link in the newest mail sent to `to`. */
export function findLinkInOutbox(dataDir: string, to: string): string | undefined {
  const mails = readOutbox(dataDir).filter((mail) => mail.to.includes(to));
  const body = mails.at(-1)?.body;
  return body ? /https?:\/\/\S+/.exec(body)?.[0] : undefined;
}
