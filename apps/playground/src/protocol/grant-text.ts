import {
  type Caveat,
  decodeGrant,
  grantId,
  isApprovalsCaveat,
  readApprovals,
  readCaveat,
  renderMoney,
  renderTime,
} from '@parley/protocol';

/** The name this page knows a key by, if it knows one. */
export type NameOfKey = (publicKey: string) => string | undefined;

/** A key as a person reads it: its name here, or its first and last characters. */
export function keyLabel(publicKey: string, nameOf: NameOfKey = () => undefined): string {
  return nameOf(publicKey) ?? `${publicKey.slice(0, 14)}…${publicKey.slice(-6)}`;
}

/** One caveat (§6.3, and docs/extensions.md §E4 approvals) in words. */
function caveatText(caveat: Caveat, nameOf: NameOfKey): string {
  if (isApprovalsCaveat(caveat)) {
    const approvals = readApprovals(caveat.approvals);
    if ('malformed' in approvals) return JSON.stringify(caveat);
    const people = approvals.of.map((key) => keyLabel(key, nameOf)).join(', ');
    return `each commit needs ${approvals.need} of ${approvals.of.length} to approve: ${people}`;
  }
  const read = readCaveat(caveat);
  if (!('name' in read)) return JSON.stringify(caveat);
  switch (read.name) {
    case 'svc':
      return `services: ${read.value.join(', ')}`;
    case 'verbs':
      return `verbs: ${read.value.join(', ')}`;
    case 'can':
      return `capabilities: ${read.value.join(', ')}`;
    case 'exp':
      return `until ${renderTime(read.value)}`;
    case 'nbf':
      return `not before ${renderTime(read.value)}`;
    case 'per':
      return `each commit ≤ ${renderMoney({ amount: read.value.max, currency: read.value.currency })}`;
    case 'spend':
      return `in total ≤ ${renderMoney({ amount: read.value.max, currency: read.value.currency })}`;
    case 'risk':
      return `risk up to ${read.value}`;
    case 'only':
      return `only the proposal with hash ${read.value.slice(0, 10)}…`;
  }
}

/** A held grant token, as a person reads it. */
export type GrantSummary = {
  token: string;
  id: string;
  /** A one-shot consent grant (§6.6): it carries an `only` caveat. */
  consent: boolean;
  /** Who signed it (its first block's issuer), named as the page knows them. */
  issuer: string;
  caveats: string[];
};

/** `token`'s caveats in words; approvers are named by `nameOf` where the page knows them. */
export function grantSummary(token: string, nameOf: NameOfKey = () => undefined): GrantSummary {
  const blocks = decodeGrant(token);
  const caveats = blocks.flatMap((block) => block.p.caveats as Caveat[]);
  return {
    token,
    id: grantId(token),
    consent: caveats.some((c) => Object.hasOwn(c, 'only')),
    issuer: keyLabel(blocks[0].p.iss, nameOf),
    caveats: caveats.map((caveat) => caveatText(caveat, nameOf)),
  };
}
