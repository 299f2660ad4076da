import {
  chmodSync,
  lstatSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { FileExistsError, writeFileAtomically } from './atomic-file.js';
import { CliError } from './cli-error.js';

// The temporary name's random part, pinned by a test that needs to know it in advance; an
// attacker cannot, which is the point.
const pinned = vi.hoisted(() => ({ bytes: undefined as Buffer | undefined }));
vi.mock('node:crypto', async (original) => {
  const crypto = await original<typeof import('node:crypto')>();
  return {
    ...crypto,
    randomBytes: (size: number) => pinned.bytes ?? crypto.randomBytes(size),
  };
});

let folder: string;
let victim: string;
beforeEach(() => {
  folder = mkdtempSync(join(tmpdir(), 'parley-atomic-'));
  victim = join(folder, 'victim');
  writeFileSync(victim, 'the victim file\n');
  chmodSync(victim, 0o644);
});
afterEach(() => {
  pinned.bytes = undefined;
  rmSync(folder, { recursive: true, force: true });
});

const untouched = () => {
  expect(readFileSync(victim, 'utf8')).toBe('the victim file\n');
  expect(statSync(victim).mode & 0o777).toBe(0o644);
};

describe('writeFileAtomically', () => {
  it('writes the file whole with the mode asked for, and leaves no temporary file', () => {
    const path = join(folder, 'config.json');
    writeFileAtomically(path, '{"a":1}\n', { mode: 0o600 });
    expect(readFileSync(path, 'utf8')).toBe('{"a":1}\n');
    expect(statSync(path).mode & 0o777).toBe(0o600);
    writeFileAtomically(path, '{"a":2}\n');
    expect(readFileSync(path, 'utf8')).toBe('{"a":2}\n');
    expect(statSync(path).mode & 0o777).toBe(0o600); // a replaced file keeps its mode
    expect(readdirSync(folder).sort()).toEqual(['config.json', 'victim']);
  });

  it('never writes through a link planted at a predictable temporary name (FILE.PID.tmp)', () => {
    const path = join(folder, 'config.json');
    symlinkSync(victim, `${path}.${process.pid}.tmp`);
    writeFileAtomically(path, 'new\n', { mode: 0o600 });
    expect(readFileSync(path, 'utf8')).toBe('new\n');
    untouched();
  });

  it('refuses to write when a link sits at its temporary name: the victim and target stay', () => {
    const path = join(folder, 'config.json');
    writeFileSync(path, 'old\n');
    pinned.bytes = Buffer.alloc(12, 7);
    symlinkSync(victim, join(folder, `.config.json.${'07'.repeat(12)}.tmp`));
    expect(() => writeFileAtomically(path, 'new\n', { mode: 0o600 })).toThrow(CliError);
    expect(() => writeFileAtomically(path, 'new\n', { mode: 0o600 })).toThrow(
      `cannot write ${path}: EEXIST`,
    );
    expect(readFileSync(path, 'utf8')).toBe('old\n');
    untouched();
    // The planted link is the attacker's; nothing else was left.
    expect(lstatSync(join(folder, `.config.json.${'07'.repeat(12)}.tmp`)).isSymbolicLink()).toBe(
      true,
    );
  });

  it('exclusive: refuses a file or a link already at the target, and leaves nothing behind', () => {
    const taken = join(folder, 'taken');
    writeFileSync(taken, 'mine\n');
    expect(() => writeFileAtomically(taken, 'new\n', { exclusive: true })).toThrow(FileExistsError);
    expect(readFileSync(taken, 'utf8')).toBe('mine\n');
    const dangling = join(folder, 'dangling');
    symlinkSync(join(folder, 'nowhere'), dangling);
    expect(() => writeFileAtomically(dangling, 'new\n', { exclusive: true })).toThrow(
      `${dangling} already exists`,
    );
    const linked = join(folder, 'linked');
    symlinkSync(victim, linked);
    expect(() => writeFileAtomically(linked, 'new\n', { exclusive: true })).toThrow(
      FileExistsError,
    );
    untouched();
    expect(readdirSync(folder).sort()).toEqual(['dangling', 'linked', 'taken', 'victim']);
    const fresh = join(folder, 'fresh.key');
    writeFileAtomically(fresh, 'secret\n', { mode: 0o600, exclusive: true });
    expect(readFileSync(fresh, 'utf8')).toBe('secret\n');
    expect(statSync(fresh).mode & 0o777).toBe(0o600);
  });

  it('names the file when its folder does not exist', () => {
    const path = join(folder, 'missing', 'file');
    expect(() => writeFileAtomically(path, 'x')).toThrow(`cannot write ${path}: ENOENT`);
  });
});
