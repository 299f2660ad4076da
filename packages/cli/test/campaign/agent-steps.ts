import type { FinalReply, Request } from '@parley/protocol';
import type { SeededRandom } from '../fixtures/seeded-random.js';
import { type Agent, type RequestBody, signedFrame } from './agents.js';
import type { Book, FrameKind, SentFrame } from './book.js';
import type { FrameLink } from './served-ledger.js';

/** A proof older than this is signed again before a retry (§6.5 allows 300 s of skew). */
const PROOF_REUSE_MS = 240_000;
const CAPABILITIES = ['ledger.buy', 'ledger.send'] as const;

/** One agent in one round: what it may act on next. */
export type AgentRun = {
  agent: Agent;
  random: SeededRandom;
  /** Proposals of this round it may still commit. */
  open: { id: string; hash: string }[];
  /** Frames of this round, for retries. */
  frames: SentFrame[];
};

/**
 * Sends `sent` on `link` and books what came back. Returns false when the connection ended
 * first (the service died): the frame stays unanswered, and is retried after the restart.
 */
export async function exchange(book: Book, sent: SentFrame, link: FrameLink): Promise<boolean> {
  if (Date.now() - sent.signedAt > PROOF_REUSE_MS) {
    // Same frame id and body, a fresh proof: still the same request (§4.3.1, §4.4).
    const { proof: _proof, grants: _grants, parley: _parley, id, ...body } = sent.frame;
    sent.frame = await signedFrame(sent.agent, id, body as RequestBody);
    sent.signedAt = Date.now();
  }
  const outcome = await link.send(sent.frame);
  const reply: FinalReply | undefined = 'reply' in outcome ? outcome.reply : undefined;
  book.record(sent, reply);
  return reply !== undefined;
}

async function newFrame(
  run: AgentRun,
  book: Book,
  kind: FrameKind,
  body: RequestBody,
  target?: string,
): Promise<SentFrame> {
  const frame: Request = await signedFrame(run.agent, run.random.frameId(run.agent.name), body);
  const sent: SentFrame = { kind, frame, agent: run.agent, signedAt: Date.now() };
  if (target !== undefined) sent.target = target;
  book.sent(sent);
  run.frames.push(sent);
  return sent;
}

/**
 * One random step of an agent: an INTENT, an auto INTENT (§4.3.1), a COMMIT of a proposal it
 * holds (sometimes the same frame twice at once), an UNDO of one of its receipts, or a retry of
 * a frame already answered, on the first of its two links (the second is for the COMMIT sent
 * twice). Returns false when the service died under it.
 */
export async function step(
  run: AgentRun,
  links: readonly [FrameLink, FrameLink],
  book: Book,
): Promise<boolean> {
  const { random } = run;
  const roll = random.next();
  const capability = random.pick(CAPABILITIES);
  const amount = random.int(1, 30);
  if (roll < 0.3 && run.open.length > 0) {
    const [chosen] = run.open.splice(random.int(0, run.open.length - 1), 1);
    if (chosen === undefined) return true;
    const sent = await newFrame(
      run,
      book,
      'commit',
      { verb: 'COMMIT', proposal: chosen.id, hash: chosen.hash },
      chosen.id,
    );
    return sendMaybeTwice(run, links, book, sent);
  }
  if (roll < 0.45) {
    // Its own receipts of this round (an agent object is one round's).
    const receipts = [...book.receipts.values()].filter(
      (receipt) => book.proposals.get(receipt.proposal)?.agent === run.agent,
    );
    if (receipts.length > 0) {
      const receipt = random.pick(receipts);
      const sent = await newFrame(
        run,
        book,
        'undo',
        { verb: 'UNDO', receipt: receipt.id },
        receipt.id,
      );
      return sendMaybeTwice(run, links, book, sent);
    }
  }
  if (roll < 0.6) {
    const answered = run.frames.filter((sent) => sent.first !== undefined);
    if (answered.length > 0) return exchange(book, random.pick(answered), links[0]);
  }
  const auto = roll >= 0.6 && roll < 0.8;
  // Now and then an outside effect whose answer is lost (OutcomeUnknownError, ledger-service.ts).
  const lose = capability === 'ledger.send' && random.chance(0.1);
  const sent = await newFrame(run, book, auto ? 'auto' : 'intent', {
    verb: 'INTENT',
    capability,
    params: { amount, ...(lose ? { lose: random.pick(['apply', 'revert']) } : {}) },
    ...(auto ? { auto: true } : {}),
  });
  const answered = await exchange(book, sent, links[0]);
  learn(run, sent);
  return answered;
}

/**
 * Sends a COMMIT or UNDO, one time in five on both links at once: it must still happen once,
 * and both copies answer the same receipt (§4.4, §4.5).
 */
async function sendMaybeTwice(
  run: AgentRun,
  links: readonly [FrameLink, FrameLink],
  book: Book,
  sent: SentFrame,
): Promise<boolean> {
  if (!run.random.chance(0.2)) return exchange(book, sent, links[0]);
  sent.concurrent = true;
  const [one, two] = await Promise.all(links.map((link) => exchange(book, sent, link)));
  sent.concurrent = false;
  return one === true && two === true;
}

/** After an INTENT's first answer: its proposals are the agent's to commit. */
export function learn(run: AgentRun, sent: SentFrame): void {
  const reply = sent.first;
  if (reply?.kind !== 'PROPOSALS' || run.open.some((open) => open.id === reply.proposals[0]?.id)) {
    return;
  }
  for (const proposal of reply.proposals) run.open.push({ id: proposal.id, hash: proposal.hash });
}
