import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

describe('examples/consensus/signed-receipt.ts', () => {
  it('writes a signed receipt that verifies, and says what that does not prove', () => {
    const script = fileURLToPath(new URL('./signed-receipt.ts', import.meta.url));
    const run = spawnSync(process.execPath, ['--conditions=source', '--import', 'tsx', script], {
      encoding: 'utf8',
    });
    expect(run.status).toBe(0);
    expect(run.stdout).toContain('Parley receipt check: Weekly sync slot');
    expect(run.stdout).toMatch(
      /OK\s+verdict signatures\s+9 signed verdicts verify \(verdict\/0\.2/,
    );
    expect(run.stdout).toMatch(/INFO\s+unanimous\s+every owner in the record accepted it/);
    expect(run.stdout).toContain('Result: VERIFIED.');
    expect(run.stdout).toContain('What this does not prove:');
  });
});
