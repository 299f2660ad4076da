import {
  type Caveat,
  decodeGrant,
  grantId,
  readCaveat,
  renderMoney,
  renderTime,
} from '@parley/protocol';

/** One caveat (§6.3) in words. */
function caveatText(caveat: Caveat): string {
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
  caveats: string[];
};

export function grantSummary(token: string): GrantSummary {
  const blocks = decodeGrant(token);
  const caveats = blocks.flatMap((block) => block.p.caveats as Caveat[]);
  return {
    token,
    id: grantId(token),
    consent: caveats.some((c) => Object.hasOwn(c, 'only')),
    caveats: caveats.map(caveatText),
  };
}
