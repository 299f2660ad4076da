import type { More, Reply, ReplyBody } from '../frames.js';
import { answerSurelyFits } from './answer-bound.js';
import type { Elision, IssueHandle } from './elision.js';
import { type FitPlan, fitBody, type ListRootAt } from './fit-body.js';
import type { Path } from './tree-path.js';

type Body = Record<string, unknown>;

function isEntries(value: unknown): value is Body {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** §8 "What may be elided", per reply kind. Kinds without roots are never changed. */
const REPLY_PLAN: FitPlan = {
  deepRoots(body) {
    switch (body.kind) {
      case 'ANSWER':
        return body.data === undefined ? [] : [['data']];
      case 'PROPOSALS': {
        const proposals = body.proposals;
        if (!Array.isArray(proposals)) return [];
        const roots: Path[] = [];
        proposals.forEach((proposal: unknown, i) => {
          if (isEntries(proposal) && proposal.data !== undefined) {
            roots.push(['proposals', i, 'data']);
          }
        });
        return roots;
      }
      case 'RECEIPT': {
        const receipt = body.receipt;
        return isEntries(receipt) && receipt.result !== undefined ? [['receipt', 'result']] : [];
      }
      default:
        return [];
    }
  },
  listRoots(body) {
    const roots: ListRootAt[] = [];
    if (body.kind === 'PROPOSALS' && Array.isArray(body.proposals)) {
      roots.push({ path: ['proposals'], name: 'proposals' });
    } else if (body.kind === 'BRIEF' && Array.isArray(body.capabilities)) {
      roots.push({ path: ['capabilities'], name: 'capabilities' });
    }
    return roots;
  },
};

/** A fitted reply: the same kind, with `more` for what was elided. */
export type Fitted<R> = R & { more?: More[] };

/** fitReply's result: the fitted reply and each elision's More and remainder. */
export interface FitResult<R> {
  reply: Fitted<R>;
  elisions: Elision[];
}

/**
 * §8: fits a reply so est(renderLens(reply)) ≤ budget, by the reference fitting algorithm
 * (fit-body.ts), issuing one handle per elided array or string. Never alters a proposal outside
 * its `data` or any capability entry, and never mutates the input. Returns the input itself when
 * it already fits (or nothing can be elided); otherwise a copy without its `lens` field, which
 * would describe the unfitted reply. More.est and the other choices are documented on fitBody.
 * A handle issued for a cut that a later halving dropped is not returned.
 *
 * `json`, when the caller has it, is JSON.stringify(reply): an ANSWER short enough to be surely
 * within the budget (answer-bound.ts) is then returned without measuring its Lens.
 */
export function fitReply<R extends Reply | ReplyBody>(
  reply: R,
  budget: number,
  issueHandle: IssueHandle,
  json?: string,
): FitResult<R> {
  if (json !== undefined && answerSurelyFits(reply, json, budget)) {
    return { reply: reply as Fitted<R>, elisions: [] };
  }
  const { body, elisions } = fitBody(reply as unknown as Body, budget, issueHandle, REPLY_PLAN);
  return { reply: body as unknown as Fitted<R>, elisions };
}
