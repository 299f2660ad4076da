import { describe, expect, it } from 'vitest';
import { describeMissing } from './missing-component.js';
import { requiredButMissing, type TestComponents, testTags } from './test-components.js';

const noChromium: TestComponents = {
  postgres: { kind: 'url', url: 'postgres://x@127.0.0.1/test', source: 'system' },
  chromium: {
    kind: 'missing',
    missing: {
      component: 'chromium',
      reason: 'no Chromium here',
      fix: 'PARLEY_TEST_CHROMIUM=/path npm test',
    },
  },
};

describe('what a run does without a component', () => {
  it('skips the tests tagged with the missing component, and only those', () => {
    expect(testTags(noChromium, {}).map((tag) => [tag.name, tag.skip === true])).toEqual([
      ['postgres', false],
      ['chromium', true],
    ]);
    expect(requiredButMissing(noChromium, {})).toBeUndefined();
  });

  it('with PARLEY_TEST_REQUIRE_ALL (CI) skips nothing and refuses to start, naming the fix', () => {
    const env = { PARLEY_TEST_REQUIRE_ALL: '1' };
    expect(testTags(noChromium, env).every((tag) => tag.skip === undefined)).toBe(true);
    expect(requiredButMissing(noChromium, env)).toContain('PARLEY_TEST_CHROMIUM=/path npm test');
  });

  it('says how many tests could not run, why, and the command that fixes it', () => {
    const missing =
      noChromium.chromium.kind === 'missing' ? noChromium.chromium.missing : undefined;
    if (missing === undefined) throw new Error('unreachable');
    expect(describeMissing(missing, 12)).toBe(
      '12 tests could not run: no Chromium here\n  fix: PARLEY_TEST_CHROMIUM=/path npm test',
    );
  });
});
