import { describe, expect, it } from 'vitest';
import { dashedIdHint } from './dashed-id.js';

const ID = `-${'Ab_9'.repeat(10)}xy`;

describe('§6.2 a grant id (or a case link token) that begins with "-"', () => {
  it('is named, with the command and the -- form that passes it', () => {
    expect(ID).toHaveLength(43);
    expect(dashedIdHint(['revoke', ID, '--svc', 'parley://h:1'])).toBe(
      `${ID} is an id that begins with "-", which reads as an option; ` +
        `put it last, after --: parley revoke … -- ${ID}`,
    );
  });

  it('says nothing for other unknown options, or for an id already after --', () => {
    expect(dashedIdHint(['revoke', '--svcs', 'x'])).toBeUndefined();
    expect(dashedIdHint(['revoke', `${ID}A`])).toBeUndefined();
    expect(dashedIdHint(['revoke', '--svc', 'u', '--', ID])).toBeUndefined();
  });
});
