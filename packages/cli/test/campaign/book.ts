import { isDeepStrictEqual } from 'node:util';
import type { FinalReply, Proposal, Receipt, ReceiptReply, Request } from '@parley/protocol';
import type { Agent } from './agents.js';

/** What a frame asked for, as the campaign classifies it. */
export type FrameKind = 'intent' | 'auto' | 'commit' | 'undo';

/** A frame the campaign sent, kept byte for byte so a retry is the same frame. */
export type SentFrame = {
  kind: FrameKind;
  frame: Request;
  agent: Agent;
  /** When its proof was signed (ms); a retry much later needs a fresh proof (§6.5). */
  signedAt: number;
  /** For COMMIT: the proposal; for UNDO: the receipt. */
  target?: string;
  /** The first final reply it got; a retry of an answered frame is compared with it. */
  first?: FinalReply;
  /** Sent twice at once: which copy is the original and which the replay is not known. */
  concurrent?: boolean;
};

/** A proposal the campaign saw: what it costs, and the grant blocks a commit reserves against. */
export type KnownProposal = {
  id: string;
  capability: string;
  amount: number;
  /** The COMMIT to send for it (§4.4: its id and hash). */
  hash: string | undefined;
  agent: Agent;
  blocks: Agent['blocks'];
};

/** Counts for the report. */
export type Figures = {
  requests: number;
  lost: number;
  retries: number;
  replaysCompared: number;
};

/**
 * Everything the campaign saw on the wire, and the checks that need nothing else: no `internal`
 * error, a receipt is the same every time it is shown (§4.4), an auto frame's repeat gets the
 * original reply (§4.3.1), an undone receipt's reversal is the same every time (§4.5). Each
 * broken rule is one line in `violations`.
 */
export class Book {
  readonly frames = new Map<string, SentFrame>();
  readonly proposals = new Map<string, KnownProposal>();
  /** Commit receipts by proposal id. */
  readonly receipts = new Map<string, Receipt>();
  /** Reversal receipts by the id of the receipt they undo. */
  readonly reversals = new Map<string, Receipt>();
  readonly violations: string[] = [];
  readonly figures: Figures = { requests: 0, lost: 0, retries: 0, replaysCompared: 0 };
  readonly #last = new Map<string, FinalReply | undefined>();

  /** The latest reply a frame got (undefined: the last try was lost). */
  last(sent: SentFrame): FinalReply | undefined {
    return this.#last.get(sent.frame.id);
  }

  /** Frames that were never answered: retried after the restart. */
  unanswered(): SentFrame[] {
    return [...this.frames.values()].filter((sent) => sent.first === undefined);
  }

  sent(entry: SentFrame): void {
    this.frames.set(entry.frame.id, entry);
  }

  /** Records what `sent` got; a retry (`first` already there) is checked against the first. */
  record(sent: SentFrame, reply: FinalReply | undefined): void {
    this.figures.requests += 1;
    this.#last.set(sent.frame.id, reply);
    if (reply === undefined) {
      this.figures.lost += 1;
      return;
    }
    const where = `${sent.kind} ${sent.frame.id} of ${sent.agent.name}`;
    if (reply.kind === 'ERROR' && reply.code === 'internal') {
      this.violations.push(`${where}: internal error: ${reply.message}`);
    }
    if (reply.kind === 'PROPOSALS') {
      for (const proposal of reply.proposals) this.#know(proposal, proposal.hash, sent.agent);
    }
    if (reply.kind === 'RECEIPT') this.#receipt(sent, reply, where);
    if (sent.first === undefined) {
      sent.first = reply;
      return;
    }
    this.#compareRetry(sent, sent.first, reply, where);
  }

  #know(
    proposal: Pick<Proposal, 'id' | 'capability' | 'cost'>,
    hash: string | undefined,
    agent: Agent,
  ): void {
    this.proposals.set(proposal.id, {
      id: proposal.id,
      capability: proposal.capability,
      amount: proposal.cost?.amount ?? 0,
      hash,
      agent,
      blocks: agent.blocks,
    });
  }

  #receipt(sent: SentFrame, reply: ReceiptReply, where: string): void {
    const { receipt } = reply;
    if (receipt.undoes !== undefined) {
      this.#same(this.reversals, receipt.undoes, receipt, `${where}: reversal`);
      return;
    }
    if (sent.kind === 'auto' && !this.proposals.has(receipt.proposal)) {
      // An auto receipt is the first sight of its proposal (§4.3.1): the cost is the receipt's.
      this.#know(
        { id: receipt.proposal, capability: receipt.capability, cost: receipt.cost },
        undefined,
        sent.agent,
      );
    }
    if (sent.kind === 'commit' && sent.target !== receipt.proposal) {
      this.violations.push(`${where}: receipt for ${receipt.proposal}, not ${sent.target}`);
    }
    this.#same(this.receipts, receipt.proposal, receipt, `${where}: receipt`);
  }

  /** §4.4, §4.5: a receipt once shown is shown again identical. */
  #same(seen: Map<string, Receipt>, key: string, receipt: Receipt, what: string): void {
    const before = seen.get(key);
    if (before === undefined) {
      seen.set(key, receipt);
      return;
    }
    this.figures.replaysCompared += 1;
    if (!isDeepStrictEqual(before, receipt)) {
      this.violations.push(
        `${what} differs from the one shown before: ${JSON.stringify(before)} then ${JSON.stringify(receipt)}`,
      );
    }
  }

  /**
   * A retried frame: a receipt stays the receipt (now `replay: true`); an auto frame's other
   * replies are repeated as they were (§4.3.1). A first ERROR of a COMMIT or UNDO may change
   * (a cap freed by an abandoned commit, an in-doubt commit settled), so it is not compared.
   */
  #compareRetry(sent: SentFrame, first: FinalReply, again: FinalReply, where: string): void {
    this.figures.retries += 1;
    if (first.kind === 'RECEIPT') {
      // A copy sent at once to another instance may find the commit still running there.
      const running =
        sent.concurrent === true && again.kind === 'ERROR' && again.code === 'unavailable';
      if (again.kind !== 'RECEIPT' && !running) {
        this.violations.push(`${where}: answered RECEIPT, then ${describe(again)} on a retry`);
      } else if (
        again.kind === 'RECEIPT' &&
        ((again.replay !== true && sent.concurrent !== true) || again.auto !== first.auto)
      ) {
        this.violations.push(`${where}: a repeated receipt must say replay (and keep auto)`);
      }
      return;
    }
    if (sent.kind !== 'auto') return;
    if (first.kind === 'ERROR' && ['unavailable', 'internal'].includes(first.code)) return;
    const strip = ({ id: _id, re: _re, ...body }: FinalReply) => body;
    this.figures.replaysCompared += 1;
    if (!isDeepStrictEqual(strip(first), strip(again))) {
      this.violations.push(
        `${where}: an auto frame's repeat must get the original reply (§4.3.1): ${describe(first)} then ${describe(again)}`,
      );
    }
  }
}

/** A reply in a few words, for a violation line. */
export function describe(reply: FinalReply): string {
  return reply.kind === 'ERROR' ? `ERROR ${reply.code} (${reply.message})` : reply.kind;
}
