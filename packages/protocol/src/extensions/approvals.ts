import { isPlainObject, type JsonValue } from '../json.js';
import { isPublicKey } from '../keys.js';

/** docs/extensions.md §E4: the caveat's name. */
export const APPROVALS_CAVEAT = 'approvals';
/** How many keys an approvals caveat may list. */
export const MAX_APPROVERS = 16;

/** §E4: a COMMIT needs consent grants from `need` distinct keys of `of`, for that proposal. */
export type Approvals = { of: string[]; need: number };

/** Whether a caveat is an approvals caveat (well formed or not). */
export function isApprovalsCaveat(caveat: JsonValue): caveat is { approvals: JsonValue } {
  return isPlainObject(caveat) && Object.keys(caveat).length === 1 && 'approvals' in caveat;
}

/** §E4: reads an approvals caveat's value, or says why it is malformed (it then fails closed). */
export function readApprovals(value: JsonValue): Approvals | { malformed: string } {
  const bad = {
    malformed: `caveat "approvals" must be {"of": [1 to ${MAX_APPROVERS} distinct ed25519 keys], "need": integer from 1 to their number}`,
  };
  if (!isPlainObject(value) || Object.keys(value).length !== 2) return bad;
  const { of, need } = value;
  if (!Array.isArray(of) || of.length === 0 || of.length > MAX_APPROVERS) return bad;
  if (!of.every((key) => isPublicKey(key)) || new Set(of).size !== of.length) return bad;
  if (!Number.isSafeInteger(need) || (need as number) < 1 || (need as number) > of.length) {
    return bad;
  }
  return { of: of as string[], need: need as number };
}

/** How many of the listed keys approved (each counted once), and whether that is enough. */
export function countApprovals(
  approvals: Approvals,
  approvers: ReadonlySet<string>,
): { have: number; enough: boolean } {
  const have = approvals.of.filter((key) => approvers.has(key)).length;
  return { have, enough: have >= approvals.need };
}
