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
import { readJsonFile, writeJsonFile } from './json-file.js';

let folder: string;
beforeEach(() => {
  folder = mkdtempSync(join(tmpdir(), 'parley-json-file-'));
});
afterEach(() => rmSync(folder, { recursive: true, force: true }));

describe('writeJsonFile', () => {
  it('writes no file through a link planted at a predictable temporary name, FILE.PID.tmp', () => {
    const victim = join(folder, 'victim');
    writeFileSync(victim, 'the victim file\n');
    chmodSync(victim, 0o644);
    const path = join(folder, 'grants.json');
    symlinkSync(victim, `${path}.${process.pid}.tmp`);
    writeJsonFile(path, { grants: [] });
    expect(readJsonFile(path)).toEqual({ grants: [] });
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(readFileSync(victim, 'utf8')).toBe('the victim file\n');
    expect(statSync(victim).mode & 0o777).toBe(0o644);
  });

  it('exclusive: refuses an existing file or link by name, leaving it as it was', () => {
    const victim = join(folder, 'victim');
    writeFileSync(victim, 'the victim file\n');
    const path = join(folder, 'agent.key');
    symlinkSync(victim, path);
    expect(() => writeJsonFile(path, { seed: 'x' }, { exclusive: true })).toThrow(
      `${path} already exists`,
    );
    expect(readFileSync(victim, 'utf8')).toBe('the victim file\n');
  });
});
