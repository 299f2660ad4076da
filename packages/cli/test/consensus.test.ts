import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { CHILD_TEST_TIMEOUT_MS, killStarted, runCli } from './fixtures/cli-process.js';
import { tempFolder } from './fixtures/temp-home.js';

const folder = tempFolder();
const env = { PARLEY_HOME: folder.home };
const recipe = fileURLToPath(
  new URL('../../consensus/recipes/recipe_committee.json', import.meta.url),
);
afterEach(() => killStarted());
afterAll(() => folder.remove());

describe('parley decide, verify-receipt, check-party (@parley/consensus commands)', {
  timeout: CHILD_TEST_TIMEOUT_MS,
}, () => {
  it('decides a recipe, verifies the --json output as a receipt, and replays a party', async () => {
    const readable = await runCli(['decide', recipe], env);
    expect(readable.code).toBe(0);
    expect(readable.stdout).toContain('Agreed: ');
    const json = await runCli(['decide', recipe, '--json'], env);
    expect(json.code).toBe(0);
    const decision = join(folder.path, 'decision.json');
    writeFileSync(decision, json.stdout);
    const verified = await runCli(['verify-receipt', decision], env);
    expect(verified.code).toBe(0);
    expect(verified.stdout).toContain('Result: VERIFIED');
    const party = join(folder.path, 'party.json');
    const spec = JSON.parse(readFileSync(recipe, 'utf8'));
    writeFileSync(party, JSON.stringify(spec.parties[0]));
    const checked = await runCli(['check-party', party, decision], env);
    expect(checked.code).toBe(0);
    expect(checked.stdout).toContain('every red line holds');
  });

  it('unusable input is exit 2 with one line', async () => {
    const missing = await runCli(['decide', join(folder.path, 'nope.json')], env);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/^parley: cannot read /);
    const bad = join(folder.path, 'bad.json');
    writeFileSync(bad, '{}');
    const refused = await runCli(['decide', bad], env);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/^parley decide: /);
  });
});
