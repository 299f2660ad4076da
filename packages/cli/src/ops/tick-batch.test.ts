import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { tickBatch } from './tick-batch.js';

describe('tickBatch', () => {
  it('passes on the text of one turn in one write, in order, and the next turn in another', async () => {
    const writes: string[] = [];
    const batch = tickBatch((text) => writes.push(text));
    batch.write('a\n');
    batch.write('b\n');
    expect(writes).toEqual([]);
    await new Promise((resolve) => setImmediate(resolve));
    expect(writes).toEqual(['a\nb\n']);
    batch.write('c\n');
    batch.flush();
    expect(writes).toEqual(['a\nb\n', 'c\n']);
    await new Promise((resolve) => setImmediate(resolve));
    expect(writes).toEqual(['a\nb\n', 'c\n']);
  });

  it('writes what is pending when the process exits in the same turn', () => {
    const module = fileURLToPath(new URL('./tick-batch.ts', import.meta.url));
    const script = `
      const { tickBatch } = await import(${JSON.stringify(module)});
      const batch = tickBatch((text) => process.stderr.write(text));
      batch.write('first\\n');
      batch.write('last\\n');
      process.exit(3);
    `;
    const run = spawnSync(
      process.execPath,
      ['--import', 'tsx', '--input-type=module', '-e', script],
      {
        encoding: 'utf8',
      },
    );
    expect(run.status).toBe(3);
    expect(run.stderr).toBe('first\nlast\n');
  });
});
