import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

describe('examples/consensus-quickstart.ts', () => {
  it('prints the lines the parley-consensus README prints', () => {
    const script = fileURLToPath(new URL('./consensus-quickstart.ts', import.meta.url));
    const stdout = execFileSync(
      process.execPath,
      ['--conditions=source', '--import', 'tsx', script],
      {
        encoding: 'utf8',
      },
    );
    expect(stdout).toBe(
      [
        "agreed {'venue': 'garden', 'cost': 600}",
        'receipt sha256: 30483303e4d94e22833161d9bb8c292c0effff88c3303d7e195e57d49c88f516',
        'Ana not betrayed: True',
        'Bob not betrayed: True',
        'Cara not betrayed: True',
        '',
      ].join('\n'),
    );
  });
});
