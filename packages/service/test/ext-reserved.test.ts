import {
  type Caveat,
  canonicalize,
  type ErrorReply,
  encodeGrant,
  publicKeyString,
  sign,
  utf8,
} from '@parley/protocol';
import { describe, expect, it } from 'vitest';
import { agentSetup, BASE_CAVEATS, keys, request, send, T0 } from './harness.js';

const { principal, agent, other, mallory } = await keys();

describe('docs/extensions.md §E0: a caveat of an extension this service does not offer', () => {
  it('an `approvals` caveat fails closed (§6.3), so a grant never authorizes more here', async () => {
    const approvals = {
      approvals: { of: [publicKeyString(other), publicKeyString(mallory)], need: 2 },
    } as unknown as Caveat;
    const s = await agentSetup({ principal, agent, trust: [publicKeyString(principal)] });
    // Signed by hand: issueGrant refuses a caveat it does not know, as a principal's tool should.
    const p = {
      iss: publicKeyString(principal),
      sub: publicKeyString(agent),
      caveats: [...BASE_CAVEATS, approvals],
      iat: T0,
      nonce: 'n-approvals',
    };
    const token = encodeGrant([{ p, s: await sign(principal, utf8(canonicalize(p))) }]);
    const { reply } = await send(
      s.service,
      await request(
        { verb: 'INTENT', capability: 'acme.buy', params: { amount: 100 } },
        { key: agent, grants: [token], ts: T0 },
      ),
    );
    expect(reply.kind).toBe('ERROR');
    expect((reply as ErrorReply).code).toBe('forbidden');
    expect((reply as ErrorReply).need).toEqual([approvals]);
  });
});
