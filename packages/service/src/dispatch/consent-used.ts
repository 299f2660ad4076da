import {
  type Grant,
  hasOwn,
  isApprovalsCaveat,
  isPlainObject,
  type JsonValue,
  readApprovals,
  readCaveat,
} from '@parley/protocol';

/**
 * docs/extensions.md §E3: the keys whose consent a COMMIT authorized by `grant` used, sorted:
 * the grant's principal when the grant is itself a §6.6 consent grant (one block, `only` this
 * proposal's hash), and the listed keys that approved it when a block holds a §E4 approvals
 * caveat (`approvers`, approvals.ts). Empty when the commit used no consent.
 */
export function consentUsed(
  grant: Grant,
  hash: string,
  principal: string,
  approvers: ReadonlySet<string>,
): string[] {
  const keys = new Set<string>();
  if (grant.length === 1 && grant[0].p.caveats.some((caveat) => bindsTo(caveat, hash))) {
    keys.add(principal);
  }
  // No one approved: an approvals caveat adds no key (the common COMMIT reads no further).
  for (const block of approvers.size === 0 ? [] : grant) {
    for (const caveat of block.p.caveats) {
      if (!isApprovalsCaveat(caveat)) continue;
      const approvals = readApprovals(caveat.approvals);
      if ('malformed' in approvals) continue;
      for (const key of approvals.of) if (approvers.has(key)) keys.add(key);
    }
  }
  return keys.size === 0 ? [] : [...keys].sort();
}

/**
 * §6.6: `caveat` is `only` this hash, the mark of a consent grant for one proposal (here and in
 * approvals.ts). Only a caveat with its own `only` member is read.
 */
export function bindsTo(caveat: JsonValue, hash: string): boolean {
  if (!isPlainObject(caveat) || !hasOwn(caveat, 'only')) return false;
  const read = readCaveat(caveat);
  return 'name' in read && read.name === 'only' && read.value === hash;
}
