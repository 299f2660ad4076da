// @module-tag postgres: runs against this run's PostgreSQL (see packages/test-support)
import {
  blockId,
  type Caveat,
  type Consent,
  consentGrant,
  decodeGrant,
  type ErrorReply,
  encodeGrant,
  type FinalReply,
  type KeyPair,
  keyPairFromSeed,
  type Proposal,
  publicKeyString,
  type ReceiptReply,
  type Request,
  signRevocation,
  verifyReceiptSignature,
} from '@parley/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PostgresStore } from '../src/index.js';
import { grantFor, PRINCIPAL, signedFrame } from './agent.js';
import { DATABASE_URL, dropSchema, freshSchema } from './database.js';
import { InstanceProcess } from './instance-process.js';
import { RawPeer } from './raw-peer.js';

/**
 * docs/extensions.md across two service processes on one database: a receipt replayed by the
 * other instance with the same key carries the same signature (§E1); a revocation kept by one
 * refuses the very next request at the other, without any cache to expire (§E2); approvals
 * counted the same at either (§E4).
 */

let schema: string;
let instances: Record<'a' | 'b', InstanceProcess>;
let peers: Record<'a' | 'b', RawPeer>;
let store: PostgresStore;

beforeAll(async () => {
  schema = freshSchema();
  instances = {
    a: new InstanceProcess({ url: DATABASE_URL, schema, name: 'a', revocation: true }),
    b: new InstanceProcess({ url: DATABASE_URL, schema, name: 'b', revocation: true }),
  };
  const [a, b] = await Promise.all([instances.a.address, instances.b.address]);
  peers = { a: await RawPeer.connect(a), b: await RawPeer.connect(b) };
  store = await PostgresStore.open(DATABASE_URL, { schema });
}, 60_000);

afterAll(async () => {
  for (const peer of Object.values(peers ?? {})) await peer.close().catch(() => {});
  for (const instance of Object.values(instances ?? {})) await instance.stop('SIGTERM');
  await store?.close();
  await dropSchema(schema);
}, 60_000);

async function propose(via: RawPeer, token: string): Promise<Proposal> {
  const reply = await via.send(
    await signedFrame({ verb: 'INTENT', capability: 'acme.buy', params: { amount: 100 } }, token),
  );
  if (reply.kind !== 'PROPOSALS') throw new Error(`expected proposals: ${JSON.stringify(reply)}`);
  return reply.proposals[0] as Proposal;
}

async function commit(via: RawPeer, proposal: Proposal, token: string): Promise<FinalReply> {
  return via.send(
    await signedFrame({ verb: 'COMMIT', proposal: proposal.id, hash: proposal.hash }, token),
  );
}

describe('§E1 signed receipts on two service processes sharing PostgreSQL and one key', () => {
  it('a COMMIT at one instance and its retry at the other carry the same valid signature', async () => {
    const grant = await grantFor();
    const proposal = await propose(peers.a, grant.token);
    const first = (await commit(peers.a, proposal, grant.token)) as ReceiptReply;
    const retry = (await commit(peers.b, proposal, grant.token)) as ReceiptReply;
    expect(retry.replay).toBe(true);
    expect(retry.signed).toEqual(first.signed);
    const key = publicKeyString(await keyPairFromSeed(new Uint8Array(32).fill(9)));
    const check = await verifyReceiptSignature(retry.receipt, retry.signed, {
      key,
      service: 'acme.example',
    });
    expect(check.ok).toBe(true);
  });
});

describe('§E4 approvals on two service processes sharing PostgreSQL', () => {
  it('one approval is refused at one instance; two are accepted at the other', async () => {
    const people = await Promise.all(
      [11, 12, 13].map((n) => keyPairFromSeed(new Uint8Array(32).fill(n))),
    );
    const of = people.map((key) => publicKeyString(key));
    const grant = await grantFor([{ approvals: { of, need: 2 } } as unknown as Caveat]);
    const proposal = await propose(peers.a, grant.token);
    const agent = publicKeyString(await keyPairFromSeed(new Uint8Array(32).fill(2)));
    const consent: Consent = {
      proposal: proposal.id,
      hash: proposal.hash,
      service: 'acme.example',
      capability: proposal.capability,
      principal: PRINCIPAL,
      summary: proposal.summary,
      expires: proposal.expires,
      approvals: { of, need: 2, have: 0 },
    };
    const approval = async (i: number) =>
      encodeGrant(await consentGrant(people[i] as KeyPair, consent, agent));
    const first = await approval(0);
    const one = (await peers.a.send(
      await signedFrame(
        { verb: 'COMMIT', proposal: proposal.id, hash: proposal.hash },
        grant.token,
        [first],
      ),
    )) as ErrorReply;
    expect(one.code).toBe('consent_required');
    expect(one.message).toMatch(/^1 of 2 approvals/);
    const two = await peers.b.send(
      await signedFrame(
        { verb: 'COMMIT', proposal: proposal.id, hash: proposal.hash },
        grant.token,
        [first, await approval(2)],
      ),
    );
    expect(two.kind).toBe('RECEIPT');
  });
});

describe('§E2 revocation on two service processes sharing PostgreSQL', () => {
  it("a revoked grant's COMMIT is refused at the other instance on the next request", async () => {
    const grant = await grantFor();
    const pending = await propose(peers.a, grant.token);
    const committed = await propose(peers.a, grant.token);
    expect((await commit(peers.a, committed, grant.token)).kind).toBe('RECEIPT');

    const principal = await keyPairFromSeed(new Uint8Array(32).fill(1));
    const root = blockId(decodeGrant(grant.token)[0]);
    const revocation = await signRevocation(
      principal,
      { block: root },
      Math.floor(Date.now() / 1000),
    );
    const frame = { parley: 1, id: 'revoke-1', verb: 'REVOKE', revocation, grant: grant.token };
    const answer = await peers.a.send(frame as unknown as Request);
    expect(answer).toMatchObject({ kind: 'ANSWER', data: { revoked: `block:${root}` } });

    for (const proposal of [pending, committed]) {
      const refused = (await commit(peers.b, proposal, grant.token)) as ErrorReply;
      expect(refused.kind).toBe('ERROR');
      expect(refused.code).toBe('unauthorized');
      expect(refused.revoked?.target).toBe(`block:${root}`);
    }
    // The pending proposal was never executed anywhere.
    expect(await store.data.get(`applied/${pending.id}`)).toBeUndefined();
    // The same revocation sent to the other instance is idempotent.
    const again = await peers.b.send({ ...frame, id: 'revoke-2' } as unknown as Request);
    expect(again).toMatchObject({
      kind: 'ANSWER',
      data: { at: (answer as unknown as { data: { at: number } }).data.at },
    });
  });

  it('a revocation signed by the wrong key is refused at either instance, and the grant still works', async () => {
    const grant = await grantFor([{ exp: Math.floor(Date.now() / 1000) + 3600 }]);
    const mallory = await keyPairFromSeed(new Uint8Array(32).fill(4));
    const root = blockId(decodeGrant(grant.token)[0]);
    const forged = await signRevocation(mallory, { block: root }, Math.floor(Date.now() / 1000));
    const refused = (await peers.b.send({
      parley: 1,
      id: 'forged',
      verb: 'REVOKE',
      revocation: forged,
      grant: grant.token,
    } as unknown as Request)) as ErrorReply;
    expect(refused.code).toBe('unauthorized');
    const proposal = await propose(peers.b, grant.token);
    expect((await commit(peers.a, proposal, grant.token)).kind).toBe('RECEIPT');
  });
});
