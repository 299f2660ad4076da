import {
  chmodSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { writeTextFile } from './text-file.js';

let folder: string;
beforeEach(() => {
  folder = mkdtempSync(join(tmpdir(), 'parley-text-file-'));
});
afterEach(() => rmSync(folder, { recursive: true, force: true }));

describe('writeTextFile (--out, --receipt)', () => {
  it('writes no file through a link planted at a predictable temporary name, FILE.PID.tmp', () => {
    const victim = join(folder, 'victim');
    writeFileSync(victim, 'the victim file\n');
    chmodSync(victim, 0o600);
    const path = join(folder, 'receipt.json');
    symlinkSync(victim, `${path}.${process.pid}.tmp`);
    writeTextFile(path, '{"receipt": 1}\n');
    expect(readFileSync(path, 'utf8')).toBe('{"receipt": 1}\n');
    expect(readFileSync(victim, 'utf8')).toBe('the victim file\n');
    expect(statSync(victim).mode & 0o777).toBe(0o600);
  });

  it('keeps the mode of the file it replaces', () => {
    const path = join(folder, 'answer.json');
    writeFileSync(path, 'old\n');
    chmodSync(path, 0o640);
    writeTextFile(path, 'new\n');
    expect(readFileSync(path, 'utf8')).toBe('new\n');
    expect(statSync(path).mode & 0o777).toBe(0o640);
  });
});
