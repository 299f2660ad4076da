import { VERDICT_V1, VERDICT_V2, type VerdictKind } from '../signing/payloads.js';
import type { Receipt } from './receipt.js';

/**
 * What each owner's verdicts in a receipt are: as the receipt states them (`verdict_kinds`), or,
 * for a receipt that does not say (Python's, older ones), `verdict/0.2` for every signed verdict
 * when there is a session (`inSession`: the receipt's or the checker's) and `verdict/0.1`
 * otherwise. An owner the receipt's statement leaves out is absent (the signature check fails it).
 */
export function verdictKindsOf(receipt: Receipt, inSession: boolean): Map<string, VerdictKind> {
  const kinds = new Map<string, VerdictKind>();
  for (const v of receipt.transcript.entries.flatMap((e) => e.verdicts)) {
    if (kinds.has(v.owner)) continue;
    const stated = receipt.verdict_kinds;
    if (stated !== null) {
      if (Object.hasOwn(stated, v.owner)) kinds.set(v.owner, stated[v.owner] as VerdictKind);
    } else if (v.sig === null && v.pubkey_hex === null) kinds.set(v.owner, 'unsigned');
    else kinds.set(v.owner, inSession ? VERDICT_V2 : VERDICT_V1);
  }
  return kinds;
}

/** In words: `verdict/0.2 in this session`, or per kind with the owners of each when mixed. */
export function describeKinds(kinds: ReadonlyMap<string, VerdictKind>): string {
  const byKind = new Map<VerdictKind, string[]>();
  for (const [owner, kind] of kinds) byKind.set(kind, [...(byKind.get(kind) ?? []), owner]);
  const name = (kind: VerdictKind) => (kind === VERDICT_V2 ? `${kind} in this session` : kind);
  if (byKind.size === 1) return name([...byKind.keys()][0] as VerdictKind);
  return [...byKind]
    .filter(([kind]) => kind !== 'unsigned')
    .map(([kind, owners]) => `${name(kind)} from ${owners.join(', ')}`)
    .join('; ');
}

/**
 * The owners among `required` whose verdicts are not `verdict/0.2` in a session: a downgrade, or
 * a delegate that never offered sessions. `required` true means every owner in the record.
 */
export function unboundOwners(
  kinds: ReadonlyMap<string, VerdictKind>,
  required: boolean | readonly string[],
  hasSession: boolean,
): string[] {
  const owners = required === true ? [...kinds.keys()] : required === false ? [] : required;
  return owners.filter((o) => !hasSession || kinds.get(o) !== VERDICT_V2);
}
