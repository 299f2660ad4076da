import { type FinalReply, type FinalReplyBody, hashProposal } from '@parley/protocol';
import { expect } from 'vitest';
import type { Expected } from './expected.js';

/** The reply without its envelope (§2.1): what the model predicts. */
export function bodyOf(reply: FinalReply): FinalReplyBody {
  const { parley: _p, id: _i, re: _r, ...body } = reply;
  return body as FinalReplyBody;
}

/** Checks one reply against the model's prediction; throws (an assertion) on any difference. */
export function expectReply(reply: FinalReply, expected: Expected, step: string): void {
  const body = bodyOf(reply);
  const shown = `${step}: got ${JSON.stringify(body)}`;
  switch (expected.kind) {
    case 'ERROR': {
      expect(body.kind, shown).toBe('ERROR');
      if (body.kind !== 'ERROR') return;
      expect([expected.code, expected.or ?? expected.code], shown).toContain(body.code);
      expect(body.consent, shown).toEqual(expected.consent);
      return;
    }
    case 'SAME':
      expect(body, shown).toEqual(expected.body);
      return;
    case 'PROPOSALS': {
      expect(body.kind, shown).toBe('PROPOSALS');
      if (body.kind !== 'PROPOSALS') return;
      expect(body.more, shown).toBeUndefined();
      const seen = body.proposals.map(({ id: _i, hash: _h, data: _d, ...rest }) => rest);
      expect(seen, shown).toEqual(expected.proposals);
      for (const proposal of body.proposals) {
        expect(proposal.id.startsWith(expected.viewOnly ? 'pv_' : 'p_'), shown).toBe(true);
        expect(proposal.hash, shown).toBe(hashProposal(proposal)); // §5.1
      }
      return;
    }
  }
  expect(body.kind, shown).toBe('RECEIPT');
  if (body.kind !== 'RECEIPT') return;
  const { id, result: _result, ...receipt } = body.receipt;
  switch (expected.kind) {
    case 'RECEIPT': {
      expect(body.replay, shown).toBeUndefined();
      expect(body.auto, shown).toBe(expected.auto ? true : undefined);
      expect(id.startsWith('r_'), shown).toBe(true);
      const { proposal, ...rest } = receipt;
      const { proposal: predicted, ...fresh } = expected.fresh;
      expect(rest, shown).toEqual(fresh);
      if (predicted !== undefined) expect(proposal, shown).toBe(predicted);
      return;
    }
    case 'REPLAY':
      expect(body.replay, shown).toBe(true);
      expect(body.auto, shown).toBe(expected.auto ? true : undefined);
      expect(body.receipt, shown).toEqual(expected.receipt);
      expect(body.undone, shown).toEqual(expected.undone);
      return;
    case 'UNDONE':
      expect(body.replay, shown).toBeUndefined();
      expect(body.auto, shown).toBeUndefined();
      expect(receipt.undoes, shown).toBe(expected.undoes);
      expect(receipt.proposal, shown).toBe(expected.proposal);
      expect(receipt.at, shown).toBe(expected.at);
      expect(receipt.cost, shown).toBeNull();
      expect(receipt.undo, shown).toBeNull();
      return;
  }
}
