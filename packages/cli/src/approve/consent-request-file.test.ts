import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CONSENT_REQUEST_FORMAT, readConsentRequest } from './consent-request-file.js';

const folder = mkdtempSync(join(tmpdir(), 'parley-request-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

const KEY = `ed25519:${'A'.repeat(43)}`;
const request = {
  format: CONSENT_REQUEST_FORMAT,
  url: 'parley://127.0.0.1:7449',
  service: 'shop.example',
  consent: {
    proposal: 'p_1',
    hash: 'h',
    service: 'shop.example',
    capability: 'shop.order',
    principal: KEY,
    summary: 'Order 1 item',
    expires: 1_790_000_600,
  },
  agent: KEY,
  proposal: { id: 'p_1' },
};

/** readConsentRequest of `body` written to a file, or the message it refused it with. */
async function read(body: unknown): Promise<string> {
  const path = join(folder, 'request.json');
  writeFileSync(path, typeof body === 'string' ? body : JSON.stringify(body));
  return readConsentRequest(path).then(
    (read) => `read ${read.consent.proposal}`,
    (error: Error) => error.message,
  );
}

describe('a consent request file from another device (§6.6): each malformed part named', () => {
  it('reads a well-formed one', async () => {
    expect(await read(request)).toBe('read p_1');
  });
  it('names what is wrong', async () => {
    expect(await read('{')).toMatch(/is not JSON/);
    expect(await read({ ...request, format: 'x' })).toMatch(
      /its "format" must be "parley-consent-request\/1"/,
    );
    expect(await read({ ...request, url: 7 })).toMatch(
      /is not a consent request; ask for the file `parley approve --export` wrote/,
    );
    expect(await read({ ...request, consent: { ...request.consent, expires: 'soon' } })).toMatch(
      /is not a consent request/,
    );
    // docs/extensions.md §E4: approvals, when present, must have their shape.
    const approvals = { of: 'everyone', need: 2, have: 0 };
    expect(await read({ ...request, consent: { ...request.consent, approvals } })).toMatch(
      /is not a consent request/,
    );
    expect(await read({ ...request, agent: 'ed25519:short' })).toMatch(/must name the agent's key/);
    expect(await read({ ...request, proposal: [] })).toMatch(
      /must carry the proposal the agent received/,
    );
  });
  it('says when the file cannot be read', async () => {
    await expect(readConsentRequest(join(folder, 'missing.json'))).rejects.toThrow(
      /cannot read the consent request .*missing\.json/,
    );
  });
});
