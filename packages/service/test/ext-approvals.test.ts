import {
  type Caveat,
  type Consent,
  consentGrant,
  type ErrorReply,
  encodeGrant,
  type KeyPair,
  keyPairFromSeed,
  type ProposalsReply,
  publicKeyString,
} from '@parley/protocol';
import { describe, expect, it } from 'vitest';
import { MemoryStore } from '../src/index.js';
import { BASE_CAVEATS, grant, keys, request, send, T0, testClock, toyService } from './harness.js';

const { principal, agent, mallory } = await keys();
const [ana, ben, cy] = await Promise.all(
  [11, 12, 13].map((n) => keyPairFromSeed(new Uint8Array(32).fill(n))),
);
const approvers = [ana, ben, cy].map((k) => publicKeyString(k as KeyPair));
const approvals = { approvals: { of: approvers, need: 2 } } as unknown as Caveat;

/** A service offering approvals (or not), an agent whose grant needs 2 of Ana, Ben and Cy. */
async function setup(offered = true) {
  const clock = testClock();
  const { service } = toyService({
    trust: [publicKeyString(principal)],
    clock: clock.now,
    store: new MemoryStore(),
    approvals: offered,
  });
  const token = await grant(principal, agent, [...BASE_CAVEATS, approvals]);
  const { reply } = await send(
    service,
    await request(
      { verb: 'INTENT', capability: 'acme.buy', params: { amount: 100 } },
      { key: agent, grants: [token], ts: T0 },
    ),
  );
  return { service, token, reply };
}

async function commitWith(
  s: Awaited<ReturnType<typeof setup>>,
  consents: string[],
): Promise<ReturnType<typeof send>> {
  const p = (s.reply as ProposalsReply).proposals[0];
  if (p === undefined) throw new Error('no proposal');
  return send(
    s.service,
    await request(
      { verb: 'COMMIT', proposal: p.id, hash: p.hash },
      { key: agent, grants: [s.token, ...consents], ts: T0 },
    ),
  );
}

/** Each approver's §6.6 consent grant for the consent request the service sent. */
async function approve(by: KeyPair, consent: Consent, nonce = 'n'): Promise<string> {
  return encodeGrant(await consentGrant(by, consent, publicKeyString(agent), { iat: T0, nonce }));
}

describe('docs/extensions.md §E4 approvals: 2 of Ana, Ben and Cy', () => {
  it('without approvals the COMMIT asks for consent, naming who may approve and how many have', async () => {
    const s = await setup();
    const { reply } = await commitWith(s, []);
    const error = reply as ErrorReply;
    expect(error.code).toBe('consent_required');
    expect(error.message).toMatch(/^0 of 2 approvals/);
    expect(error.consent?.approvals).toEqual({ of: approvers, need: 2, have: 0 });
  });

  it('one approval is refused (1 of 2); two are accepted', async () => {
    const s = await setup();
    const consent = ((await commitWith(s, [])).reply as ErrorReply).consent as Consent;
    const fromAna = await approve(ana as KeyPair, consent);
    const one = (await commitWith(s, [fromAna])).reply as ErrorReply;
    expect(one.code).toBe('consent_required');
    expect(one.message).toMatch(/^1 of 2 approvals/);
    expect(one.consent?.approvals?.have).toBe(1);
    const fromBen = await approve(ben as KeyPair, consent);
    expect((await commitWith(s, [fromAna, fromBen])).reply.kind).toBe('RECEIPT');
  });

  it('the same key twice counts once, and a key not listed is ignored', async () => {
    const s = await setup();
    const consent = ((await commitWith(s, [])).reply as ErrorReply).consent as Consent;
    const twice = [
      await approve(ana as KeyPair, consent, 'a1'),
      await approve(ana as KeyPair, consent, 'a2'),
    ];
    expect(((await commitWith(s, twice)).reply as ErrorReply).message).toMatch(/^1 of 2/);
    const outsider = encodeGrant(
      await consentGrant(
        mallory,
        { ...consent, principal: publicKeyString(mallory) },
        publicKeyString(agent),
        {
          iat: T0,
        },
      ),
    );
    const withOutsider = (await commitWith(s, [twice[0] as string, outsider])).reply as ErrorReply;
    expect(withOutsider.message).toMatch(/^1 of 2/);
  });

  it('an approval of another proposal does not count', async () => {
    const s = await setup();
    const consent = ((await commitWith(s, [])).reply as ErrorReply).consent as Consent;
    const other = { ...consent, hash: 'another-hash' };
    const stale = [await approve(ana as KeyPair, other), await approve(ben as KeyPair, other)];
    expect(((await commitWith(s, stale)).reply as ErrorReply).message).toMatch(/^0 of 2/);
  });

  it('a service that does not offer approvals refuses the grant outright (§6.3: fails closed)', async () => {
    const s = await setup(false);
    expect(s.reply.kind).toBe('ERROR');
    expect((s.reply as ErrorReply).code).toBe('forbidden');
  });
});
