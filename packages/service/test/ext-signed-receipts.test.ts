import {
  type BriefReply,
  keyPairFromSeed,
  type ProposalsReply,
  publicKeyString,
  type ReceiptReply,
  renderLens,
  verifyReceiptSignature,
} from '@parley/protocol';
import { describe, expect, it } from 'vitest';
import { agentSetup, keys, request, SERVICE_ID, send } from './harness.js';

const { principal, agent } = await keys();
const serviceKey = await keyPairFromSeed(new Uint8Array(32).fill(9));
const trust = [publicKeyString(principal)];

/** A service (signing or not) with an agent, and one committed purchase. */
async function committed(signing: boolean) {
  const s = await agentSetup({
    principal,
    agent,
    trust,
    ...(signing ? { receiptKey: serviceKey } : {}),
  });
  const brief = (await send(s.service, await request({ verb: 'HELLO' }))).reply as BriefReply;
  const { reply } = await send(
    s.service,
    await request({ verb: 'INTENT', capability: 'acme.buy', params: { amount: 250 } }, s.signer()),
  );
  const proposal = (reply as ProposalsReply).proposals[0];
  if (proposal === undefined) throw new Error('no proposal');
  const commitFrame = await request(
    { verb: 'COMMIT', proposal: proposal.id, hash: proposal.hash },
    s.signer(),
  );
  const receipt = (await send(s.service, commitFrame)).reply as ReceiptReply;
  return { ...s, brief, receipt, commitFrame };
}

describe('docs/extensions.md §E1 signed receipts', () => {
  it('a service without a receipt key sends v1 bytes: no `ext` in the BRIEF, no `signed`', async () => {
    const { brief, receipt } = await committed(false);
    expect(brief.kind).toBe('BRIEF');
    expect('ext' in brief).toBe(false);
    expect(receipt.kind).toBe('RECEIPT');
    expect('signed' in receipt).toBe(false);
  });

  it('announces its key in the BRIEF and signs the RECEIPT over its canonical form', async () => {
    const { brief, receipt } = await committed(true);
    expect(brief.ext).toEqual({ 'signed-receipts': { key: publicKeyString(serviceKey) } });
    expect(receipt.signed).toMatchObject({ by: SERVICE_ID, key: publicKeyString(serviceKey) });
    const check = await verifyReceiptSignature(receipt.receipt, receipt.signed, {
      key: publicKeyString(serviceKey),
      service: SERVICE_ID,
    });
    expect(check).toEqual({ ok: true, by: SERVICE_ID });
  });

  it('the Lens of a signed RECEIPT is the Lens of the same receipt unsigned (§9.2)', async () => {
    const { receipt } = await committed(true);
    const { signed: _signed, ...unsigned } = receipt;
    expect(renderLens(receipt)).toBe(renderLens(unsigned));
  });

  it('a replayed COMMIT carries the same signature, and a reversal is signed too', async () => {
    const { service, receipt, commitFrame, signer } = await committed(true);
    const replay = (await send(service, { ...commitFrame, id: 'again' })).reply as ReceiptReply;
    expect(replay.replay).toBe(true);
    expect(replay.signed).toEqual(receipt.signed);
    const undo = (
      await send(service, await request({ verb: 'UNDO', receipt: receipt.receipt.id }, signer()))
    ).reply as ReceiptReply;
    expect(undo.receipt.undoes).toBe(receipt.receipt.id);
    const check = await verifyReceiptSignature(undo.receipt, undo.signed, {
      key: publicKeyString(serviceKey),
      service: SERVICE_ID,
    });
    expect(check.ok).toBe(true);
  });

  it('any change to a signed field fails the check; the result is outside the signature', async () => {
    const { receipt } = await committed(true);
    const expected = { key: publicKeyString(serviceKey), service: SERVICE_ID };
    const changed = { ...receipt.receipt, cost: { amount: 1, currency: 'USD' } };
    expect(await verifyReceiptSignature(changed, receipt.signed, expected)).toMatchObject({
      ok: false,
      code: 'bad_signature',
    });
    const otherKey = { ...expected, key: publicKeyString(agent) };
    expect(await verifyReceiptSignature(receipt.receipt, receipt.signed, otherKey)).toMatchObject({
      ok: false,
      code: 'wrong_key',
    });
    expect(
      await verifyReceiptSignature(receipt.receipt, receipt.signed, {
        ...expected,
        service: 'other.example',
      }),
    ).toMatchObject({ ok: false, code: 'wrong_service' });
    expect(await verifyReceiptSignature(receipt.receipt, undefined, expected)).toMatchObject({
      ok: false,
      code: 'unsigned',
    });
    const newResult = { ...receipt.receipt, result: { bought: 99 } };
    expect((await verifyReceiptSignature(newResult, receipt.signed, expected)).ok).toBe(true);
  });
});
