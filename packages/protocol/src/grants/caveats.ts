import { countApprovals, isApprovalsCaveat, readApprovals } from '../extensions/approvals.js';
import { type Money, RISK_LEVELS, type Risk, type Verb } from '../frames.js';
import { hasOwn, isPlainObject, type JsonValue } from '../json.js';
import { GrantIssueError } from './grant-issue-error.js';
import { CAVEAT_NAMES, type CaveatName, type Limit } from './types.js';

/** What a caveat is checked against (§6.3). */
export interface CaveatContext {
  service: string;
  verb: Verb;
  /** The request's capability; for UNDO, the capability of the receipt being undone (§6.3). */
  capability?: string | undefined;
  now: number;
  /** For COMMIT: the proposal being committed. */
  proposal?: { hash: string; cost: Money | null; risk: Risk } | undefined;
  /** For COMMIT: cumulative committed spend per block id (§6.3 spend). */
  spent?: Readonly<Record<string, number>> | undefined;
  /**
   * docs/extensions.md §E4: set only by a service that offers approvals (else an approvals caveat
   * is unknown and fails closed); for COMMIT, the keys whose consent grants for exactly this
   * proposal the request presented.
   */
  approvers?: ReadonlySet<string> | undefined;
}

/**
 * The outcome of one caveat. `soft` failures are the ones consent can lift (§6.6: risk, per,
 * spend); every other failure is `hard` (forbidden).
 */
export type CaveatOutcome = { ok: true } | { ok: false; severity: 'hard' | 'soft'; reason: string };

/** A caveat whose shape is valid for v1, narrowed to its name and value. */
export type WellFormedCaveat =
  | { name: 'svc' | 'verbs' | 'can'; value: string[] }
  | { name: 'exp' | 'nbf'; value: number }
  | { name: 'per' | 'spend'; value: Limit }
  | { name: 'risk'; value: Risk }
  | { name: 'only'; value: string };

const OK: CaveatOutcome = { ok: true };
const hard = (reason: string): CaveatOutcome => ({ ok: false, severity: 'hard', reason });
const soft = (reason: string): CaveatOutcome => ({ ok: false, severity: 'soft', reason });

const isStringList = (v: unknown): v is string[] =>
  Array.isArray(v) && v.every((x) => typeof x === 'string');

const isLimit = (v: unknown): v is Limit =>
  isPlainObject(v) &&
  Object.keys(v).length === 2 &&
  Number.isSafeInteger(v.max) &&
  typeof v.currency === 'string';

/**
 * §6.3: reads a caveat, or says why it is malformed. Unknown names and malformed values fail
 * closed; lookups use own properties only, so `{"risk": "toString"}` is malformed.
 */
export function readCaveat(caveat: JsonValue): WellFormedCaveat | { malformed: string } {
  if (!isPlainObject(caveat)) return { malformed: 'a caveat must be a single-key object' };
  const keys = Object.keys(caveat);
  if (keys.length !== 1) return { malformed: 'a caveat must have exactly one key' };
  const name = keys[0] as string;
  if (!(CAVEAT_NAMES as readonly string[]).includes(name)) {
    return { malformed: `unknown caveat "${name.slice(0, 40)}" (§6.3: fails closed)` };
  }
  const value = caveat[name];
  switch (name as CaveatName) {
    case 'svc':
    case 'verbs':
    case 'can':
      return isStringList(value)
        ? { name: name as 'svc', value }
        : { malformed: `caveat "${name}" must be a list of strings` };
    case 'exp':
    case 'nbf':
      return Number.isSafeInteger(value)
        ? { name: name as 'exp', value: value as number }
        : { malformed: `caveat "${name}" must be an integer` };
    case 'per':
    case 'spend':
      return isLimit(value)
        ? { name: name as 'per', value }
        : { malformed: `caveat "${name}" must be {"max": integer, "currency": string}` };
    case 'risk':
      return typeof value === 'string' && (RISK_LEVELS as readonly string[]).includes(value)
        ? { name: 'risk', value: value as Risk }
        : { malformed: 'caveat "risk" must be low, medium or high' };
    case 'only':
      return typeof value === 'string'
        ? { name: 'only', value }
        : { malformed: 'caveat "only" must be a proposal hash string' };
  }
}

/** §6.3 `can`: an exact name, or a prefix followed by `*`; `"*"` matches all. */
export function matchesCapability(pattern: string, capability: string): boolean {
  return pattern.endsWith('*')
    ? capability.startsWith(pattern.slice(0, -1))
    : pattern === capability;
}

const riskRank = (risk: Risk): number => RISK_LEVELS.indexOf(risk);

/**
 * §6.3: evaluates one caveat of the block with id `blockId`. per, spend, risk and only apply to
 * COMMIT alone.
 */
export function evaluateCaveat(
  caveat: JsonValue,
  ctx: CaveatContext,
  blockId: string,
): CaveatOutcome {
  if (ctx.approvers !== undefined && isApprovalsCaveat(caveat)) {
    return evaluateApprovals(caveat.approvals, ctx, ctx.approvers);
  }
  const read = readCaveat(caveat);
  if ('malformed' in read) return hard(read.malformed);
  const commit = ctx.verb === 'COMMIT';
  switch (read.name) {
    case 'svc':
      return read.value.includes(ctx.service) ? OK : hard('the grant does not cover this service');
    case 'verbs':
      return read.value.includes(ctx.verb) ? OK : hard(`the grant does not allow ${ctx.verb}`);
    case 'can': {
      const capability = ctx.capability;
      if (capability === undefined) return hard('the request names no capability to check');
      return read.value.some((p) => matchesCapability(p, capability))
        ? OK
        : hard(`the grant does not cover capability ${capability}`);
    }
    case 'exp':
      return ctx.now < read.value ? OK : hard('the grant has expired');
    case 'nbf':
      return ctx.now >= read.value ? OK : hard('the grant is not valid yet');
  }
  if (!commit) return OK;
  const proposal = ctx.proposal;
  if (proposal === undefined) return hard('COMMIT has no proposal to check the grant against');
  const cost = proposal.cost;
  switch (read.name) {
    case 'per':
      if (cost === null) return OK;
      if (cost.currency !== read.value.currency) {
        return soft('the cost is in a currency the per-commit limit does not cover');
      }
      return cost.amount <= read.value.max ? OK : soft('the cost exceeds the per-commit limit');
    case 'spend': {
      const spent =
        (ctx.spent !== undefined && hasOwn(ctx.spent, blockId) ? ctx.spent[blockId] : 0) ?? 0;
      if (cost === null) return spent <= read.value.max ? OK : soft('the spend limit is used up');
      if (cost.currency !== read.value.currency) {
        return soft('the cost is in a currency the spend limit does not cover');
      }
      return spent + cost.amount <= read.value.max
        ? OK
        : soft('the cost would exceed the cumulative spend limit');
    }
    case 'risk':
      return riskRank(proposal.risk) <= riskRank(read.value)
        ? OK
        : soft(`the proposal's risk exceeds the grant's ceiling (${read.value})`);
    case 'only':
      return proposal.hash === read.value ? OK : hard('the grant is bound to another proposal');
  }
}

/**
 * §E4: satisfied for verbs other than COMMIT; for COMMIT when `need` distinct listed keys
 * approved this proposal. Short of that it is soft: consent (each listed person's) lifts it.
 */
function evaluateApprovals(
  value: JsonValue,
  ctx: CaveatContext,
  approvers: ReadonlySet<string>,
): CaveatOutcome {
  const approvals = readApprovals(value);
  if ('malformed' in approvals) return hard(approvals.malformed);
  if (ctx.verb !== 'COMMIT') return OK;
  const { have, enough } = countApprovals(approvals, approvers);
  return enough ? OK : soft(`${have} of ${approvals.need} approvals`);
}

/** Checks that a caveat list is well-formed; throws a GrantIssueError naming the first bad one. */
export function assertWellFormedCaveats(caveats: readonly JsonValue[]): void {
  caveats.forEach((caveat, index) => {
    // §E4: an extension's caveat a principal may issue; services that do not offer it refuse it.
    const read = isApprovalsCaveat(caveat) ? readApprovals(caveat.approvals) : readCaveat(caveat);
    if ('malformed' in read) throw new GrantIssueError(`caveat ${index}: ${read.malformed}`);
  });
}
