import readline from 'node:readline';
import { Writable, type Readable } from 'node:stream';

/** Where a command reads a password from and writes its prompts and warnings to. */
export interface CommandIo {
  stdin: Readable & { isTTY?: boolean };
  stderr: Writable;
}

/** The first line of the stream, without its line ending (like `docker login --password-stdin`). */
export async function readFirstLine(stream: Readable): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) {
    const buffer = typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer);
    const end = buffer.indexOf(0x0a);
    if (end >= 0) {
      chunks.push(buffer.subarray(0, end));
      break;
    }
    chunks.push(buffer);
  }
  return Buffer.concat(chunks).toString('utf8').replace(/\r$/, '');
}

/**
 * Asks for a line on a terminal without echoing it: readline writes its echo to a stream that
 * drops everything, while the prompt itself goes to stderr so stdout stays the command's result.
 */
/** Resolves undefined when the prompt ends without a line (Ctrl+C, Ctrl+D). */
export function promptHidden(io: CommandIo, question: string): Promise<string | undefined> {
  io.stderr.write(question);
  const silent = new Writable({ write: (_chunk, _encoding, done) => done() });
  const rl = readline.createInterface({ input: io.stdin, output: silent, terminal: true });
  return new Promise((resolve) => {
    let answered = false;
    rl.on('line', (line) => {
      answered = true;
      rl.close();
      resolve(line);
    });
    // Ctrl+C (raw mode turns it into a key) and Ctrl+D both end the prompt without a password.
    rl.on('SIGINT', () => rl.close());
    rl.on('close', () => {
      io.stderr.write('\n');
      if (!answered) {
        resolve(undefined);
      }
    });
  });
}
