import { describe, expect, it } from 'vitest';
import { answered, OPTIONS, StubElicitor } from '../../test/fixtures/stub-elicitor.js';
import { pyDumps } from '../py-json/dumps.js';
import { parsePyJson } from '../py-json/parse.js';
import { readPartyFrom } from '../spec/read-party-from.js';
import { confirmSheet } from './confirm.js';
import { draftSheet } from './draft.js';
import { draftToDict, partyFileDict, readDraft } from './draft-file.js';

const REPLY = {
  claims: ['we close this quarter'],
  hard: [{ attr: 'price', op: '<=', value: 900, source_prompt_id: 'unacceptable' }],
  utility: [{ attr: 'color', prefer: 'blue', source_prompt_id: 'priorities' }],
  unclear: [{ question: 'Which currency?' }],
};

describe('draft files and party files', () => {
  it('a draft survives its file, token included, and is refused once edited', async () => {
    const draft = await draftSheet(answered(), new StubElicitor(REPLY), { options: OPTIONS });
    const text = pyDumps(draftToDict(draft, { withToken: true }), { indent: 2 });
    expect(readDraft(text)).toEqual(draft);
    const shown = draftToDict(draft, { withToken: false });
    expect(pyDumps(shown)).not.toContain(draft.token);
    expect(() => readDraft(shown)).toThrow(/"token" must be text/);
    const edited = text.replace('900', '9000');
    expect(() => readDraft(edited)).toThrow(/changed since it was made/);
    expect(() => readDraft('{"format": "other"}')).toThrow(/not a sheet draft/);
    expect(() => readDraft('{')).toThrow(/must be JSON/);
  });

  it('a party file is a party of the spec format, with the confirmation beside it and no token', async () => {
    const draft = await draftSheet(answered(), new StubElicitor({ ...REPLY, unclear: [] }), {
      options: OPTIONS,
    });
    const sheet = confirmSheet(draft, {
      participant: 'ana',
      token: draft.token,
      hard: ['h1'],
      version: draft.version,
    });
    const text = pyDumps(partyFileDict(sheet), { indent: 2 });
    expect(text).not.toContain(draft.token);
    expect(readPartyFrom(text)).toEqual({
      owner: 'ana',
      hard: [{ attr: 'price', op: '<=', value: 900 }],
      utility: [sheet.utility[0]],
    });
    expect(parsePyJson(text)).toMatchObject({ sheet: { version: draft.version, case: 'case-1' } });
  });
});
