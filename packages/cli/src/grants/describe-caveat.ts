import {
  isApprovalsCaveat,
  type JsonValue,
  readApprovals,
  readCaveat,
  renderMoney,
  renderTime,
  roughDuration,
} from '@parley/protocol';

/** §6.3: one caveat in plain words, judged at `now` for times. */
export function describeCaveat(caveat: JsonValue, now: number): string {
  if (isApprovalsCaveat(caveat)) {
    const approvals = readApprovals(caveat.approvals);
    if (!('malformed' in approvals)) {
      return `each COMMIT needs the consent of ${approvals.need} of ${approvals.of.join(', ')} (refused by services without approvals, docs/extensions.md §E4)`;
    }
  }
  const read = readCaveat(caveat);
  if ('malformed' in read) {
    return `${read.malformed}; a service refuses every request under this grant`;
  }
  switch (read.name) {
    case 'svc':
      return `only at the service${plural(read.value)} ${read.value.join(', ')}`;
    case 'verbs':
      return `only the verb${plural(read.value)} ${read.value.join(', ')}`;
    case 'can':
      return `only capabilities matching ${read.value.join(', ')}`;
    case 'exp':
      return read.value > now
        ? `expires ${renderTime(read.value)} (in ${roughDuration(read.value - now)})`
        : `expired ${renderTime(read.value)}`;
    case 'nbf':
      return read.value > now
        ? `not valid before ${renderTime(read.value)} (in ${roughDuration(read.value - now)})`
        : `valid since ${renderTime(read.value)}`;
    case 'per':
      return `a COMMIT may cost at most ${renderMoney({ amount: read.value.max, currency: read.value.currency })}; above that the principal must consent`;
    case 'spend':
      return `all COMMITs under it together may cost at most ${renderMoney({ amount: read.value.max, currency: read.value.currency })}; beyond that the principal must consent`;
    case 'risk':
      return `COMMITs up to ${read.value} risk; riskier ones need the principal's consent`;
    case 'only':
      return `only the COMMIT of the proposal whose hash is ${read.value}`;
  }
}

const plural = (list: readonly string[]): string => (list.length === 1 ? '' : 's');
