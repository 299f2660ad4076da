// docs/extensions.md §E3 in `parley serve`: by default the store keeps the trail and the BRIEF
// announces it; `--no-audit` keeps none (no row appended, no chain head locked: docs/scaling.md)
// and announces none. Real child processes on one SQLite data folder each.
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHILD_TEST_TIMEOUT_MS, killAll, runCli } from './fixtures/cli-process.js';
import { serveExample } from './fixtures/served-example.js';
import { tempFolder } from './fixtures/temp-home.js';

const folder = tempFolder();
const env = { PARLEY_HOME: folder.home };

beforeAll(async () => {
  await runCli(['keys', 'init'], env);
  await runCli(['grant', '--svc', 'shop.example', '--can', 'shop.*', '--per', '30.00:USD'], env);
}, CHILD_TEST_TIMEOUT_MS);
afterAll(() => {
  killAll();
  folder.remove();
});

/** Serves the shop on `data` with `flags`, commits one small order; the BRIEF's extensions. */
async function orderOnce(data: string, flags: string[]): Promise<Record<string, unknown>> {
  const shop = await serveExample(
    'shop',
    ['--tcp', '127.0.0.1:0', '--data', data, ...flags],
    env,
    1,
  );
  try {
    const url = shop.addresses[0] as string;
    const hello = await runCli(['hello', url, '--json'], env);
    const intent = await runCli(
      ['intent', url, 'shop.order', 'items:=[{"sku":"cab-1a","qty":1}]'],
      env,
    );
    const proposal = /\[(p_[\w-]+)\]/.exec(intent.stdout)?.[1] as string;
    expect((await runCli(['commit', url, proposal], env)).code).toBe(0);
    return (JSON.parse(hello.stdout) as { ext?: Record<string, unknown> }).ext ?? {};
  } finally {
    await shop.stop();
  }
}

describe('parley serve and the audit trail (§E3)', { timeout: CHILD_TEST_TIMEOUT_MS }, () => {
  it('keeps and announces the trail by default; --no-audit keeps and announces none', async () => {
    const kept = join(folder.path, 'kept');
    expect(await orderOnce(kept, [])).toHaveProperty('audit');
    const keptTrail = await runCli(['audit', 'shop', '--data', kept, '--verify'], env);
    expect(keptTrail.stdout).toMatch(/^1 rows? verified/);

    const none = join(folder.path, 'none');
    expect(await orderOnce(none, ['--no-audit'])).not.toHaveProperty('audit');
    const noTrail = await runCli(['audit', 'shop', '--data', none, '--json'], env);
    expect(noTrail.code).toBe(0);
    expect(noTrail.stdout).toBe('');
  });
});
