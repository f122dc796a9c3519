import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { SERVER_NODE_FLAGS } from './node-flags.js';

describe('the V8 flags', () => {
  it('are the ones `npm start` runs the server with', () => {
    const manifest = JSON.parse(
      fs.readFileSync(path.join(import.meta.dirname, '..', 'package.json'), 'utf8'),
    ) as { scripts: { start: string } };
    const words = manifest.scripts.start.split(' ');
    expect(words.filter((word) => word.startsWith('--') && word !== '--import')).toEqual(SERVER_NODE_FLAGS);
  });
});
