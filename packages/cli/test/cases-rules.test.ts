import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { casesCli, newCaseArgs } from './fixtures/case-cli.js';
import { CHILD_TEST_TIMEOUT_MS } from './fixtures/cli-process.js';

const { folder, cli, ok } = casesCli();
afterAll(() => folder.remove());

describe('parley cases rules: fix, reclassify and remove a draft item by its id, as the page does', {
  timeout: CHILD_TEST_TIMEOUT_MS,
}, () => {
  it("changes the items the draft prints, and reports a rule it cannot read as the person's mistake", async () => {
    const options = join(folder.path, 'options.json');
    writeFileSync(
      options,
      JSON.stringify([
        { plan: 'A', rent: 950, weeks: 4 },
        { plan: 'B', rent: 1100, weeks: 6 },
      ]),
    );
    const made = JSON.parse(await ok(newCaseArgs('Rules', options)));
    const ana = made.links[0].link as string;
    const drafted = await ok([
      'cases',
      'rules',
      ana,
      '--rule',
      'rent <= 1000',
      '--rule',
      'prefer lower rent 800..1100',
    ]);
    expect(drafted).toContain('h1 must hold: rent <= 1000');
    expect(drafted).toContain('s1 prefer lower rent');
    expect(drafted).toContain('Your red lines leave 1 of the 2 options.');

    // Fix keeps the kind; a rule of the other kind reclassifies (a new id of that kind).
    const fixed = await ok(['cases', 'rules', ana, '--fix', 'h1=rent <= 990']);
    expect(fixed).toContain('h1 must hold: rent <= 990');
    const reclassified = await ok(['cases', 'rules', ana, '--fix', 's1=weeks >= 4']);
    expect(reclassified).toContain('h2 must hold: weeks >= 4');
    expect(reclassified).not.toContain('prefer lower rent');
    const removed = await ok(['cases', 'rules', ana, '--remove', 'h1']);
    expect(removed).not.toContain('rent <= 990');

    const unreadable = await cli(['cases', 'rules', ana, '--rule', 'garbage words']);
    expect(unreadable.code).toBe(2);
    expect(unreadable.stderr).toMatch(/^parley: could not read the rule "garbage words"/);
    expect(unreadable.stderr).not.toContain('unexpected failure');
    const noItem = await cli(['cases', 'rules', ana, '--fix', 'h9=rent <= 900']);
    expect(noItem.code).toBe(1);
    expect(noItem.stderr).toContain('no item "h9"');
    const nothing = await cli(['cases', 'rules', ana]);
    expect(nothing.code).toBe(2);
    expect(nothing.stderr).toContain('give --rule, --fix, --remove');
    // Red lines that leave no option are kept (they are the person's), with a warning: as they
    // stand the decision can only end in deadlock (module 03; our addition to the reference).
    const none = await ok(['cases', 'rules', ana, '--rule', 'rent <= 100']);
    expect(none).toContain('h3 must hold: rent <= 100');
    expect(none).toContain(
      'Your red lines leave none of the 2 options: as they stand, the decision can only end in deadlock.',
    );
    const unconfirmed = await cli(['cases', 'confirm', ana]);
    expect(unconfirmed.stdout).toContain('Your red lines leave none of the 2 options');
    await ok(['cases', 'rules', ana, '--remove', 'h3']);
    const { draft } = JSON.parse(await ok(['cases', 'status', ana, '--json'])).you;
    expect(draft.hard).toEqual([
      expect.objectContaining({ id: 'h2', constraint: { attr: 'weeks', op: '>=', value: 4 } }),
    ]);
    // Confirmed and waiting for the others: what her own confirmed lines leave.
    await ok(['cases', 'confirm', ana, '--version', draft.version]);
    expect(await ok(['cases', 'status', ana])).toContain(
      'Your confirmed red lines leave 2 of the 2 options.',
    );
  });
});
