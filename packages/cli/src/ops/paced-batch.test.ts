import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { pacedBatch } from './paced-batch.js';

describe('pacedBatch', () => {
  let clock = 0;
  const now = () => clock;
  /** Moves the clock and Node's timers on together. */
  const advance = (ms: number) => {
    clock += ms;
    vi.advanceTimersByTime(ms);
  };
  beforeEach(() => {
    clock = 0;
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setImmediate', 'clearImmediate'] });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('a quiet log: the text of one turn in one write, in order, at the end of the turn', () => {
    const writes: string[] = [];
    const batch = pacedBatch((text) => writes.push(text), 10, now);
    batch.write('a\n');
    batch.write('b\n');
    expect(writes).toEqual([]);
    vi.runOnlyPendingTimers();
    expect(writes).toEqual(['a\nb\n']);
  });

  it('a busy log: text within the pace of the last write waits for it, then goes in one write', () => {
    const writes: string[] = [];
    const batch = pacedBatch((text) => writes.push(text), 10, now);
    batch.write('a\n');
    vi.runOnlyPendingTimers();
    advance(3);
    batch.write('b\n');
    advance(2);
    batch.write('c\n');
    advance(4);
    expect(writes).toEqual(['a\n']);
    advance(1);
    expect(writes).toEqual(['a\n', 'b\nc\n']);
    advance(30);
    batch.write('d\n');
    vi.runOnlyPendingTimers();
    expect(writes).toEqual(['a\n', 'b\nc\n', 'd\n']);
  });

  it('flush writes what is pending at once, and nothing twice', () => {
    const writes: string[] = [];
    const batch = pacedBatch((text) => writes.push(text), 10, now);
    batch.write('a\n');
    batch.flush();
    batch.write('b\n');
    batch.flush();
    advance(50);
    vi.runOnlyPendingTimers();
    expect(writes).toEqual(['a\n', 'b\n']);
  });

  it('a flush cancels the one scheduled, so text after it still waits for its pace', () => {
    const writes: string[] = [];
    const batch = pacedBatch((text) => writes.push(text), 10, now);
    batch.write('a\n');
    batch.flush();
    batch.write('b\n');
    advance(0);
    expect(writes).toEqual(['a\n']);
    advance(10);
    expect(writes).toEqual(['a\n', 'b\n']);
  });
});

describe('pacedBatch on exit', () => {
  /** Runs `body` after a batch on stderr is made, and returns the process's status and stderr. */
  function run(body: string) {
    const module = fileURLToPath(new URL('./paced-batch.ts', import.meta.url));
    const script = `
      const { pacedBatch } = await import(${JSON.stringify(module)});
      const batch = pacedBatch((text) => process.stderr.write(text), 60_000);
      ${body}
    `;
    return spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
      encoding: 'utf8',
    });
  }

  it('writes what is pending when the process exits in the same turn', () => {
    const exited = run("batch.write('first\\n'); batch.write('last\\n'); process.exit(3);");
    expect(exited.status).toBe(3);
    expect(exited.stderr).toBe('first\nlast\n');
  });

  it('writes what waits for its pace when the process exits, or the loop runs dry', () => {
    const exited = run(
      "batch.write('a\\n'); batch.flush(); batch.write('b\\n'); setTimeout(() => process.exit(4), 20);",
    );
    expect(exited.status).toBe(4);
    expect(exited.stderr).toBe('a\nb\n');
    const dry = run("batch.write('a\\n'); batch.flush(); batch.write('b\\n');");
    expect(dry.status).toBe(0);
    expect(dry.stderr).toBe('a\nb\n');
  });

  it('writes what is pending when an uncaught exception ends the process', () => {
    const thrown = run(
      "batch.write('a\\n'); batch.flush(); batch.write('b\\n'); setTimeout(() => { throw new Error('boom'); }, 5);",
    );
    expect(thrown.status).toBe(1);
    expect(thrown.stderr.startsWith('a\nb\n')).toBe(true);
  });
});
