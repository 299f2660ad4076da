import { type Caveat, encodeGrant, issueGrant } from '@parley/protocol';
import { useState } from 'preact/hooks';
import type { Approver } from '../protocol/approvers.js';
import type { BrowserKeys } from '../protocol/browser-keys.js';
import { SERVICE_NAMES, SERVICES } from '../protocol/services.js';

const EXPIRIES = [
  ['1 hour', 3_600],
  ['1 day', 86_400],
  ['7 days', 7 * 86_400],
] as const;

/** Dollars as typed ("30", "30.00") to cents, or undefined when it is not an amount. */
function cents(text: string): number | undefined {
  if (!/^\d{1,7}(\.\d{1,2})?$/.test(text.trim())) return undefined;
  return Math.round(Number(text.trim()) * 100);
}

/**
 * §6.2, §6.3: the principal signs a grant for the agent, with the caveats chosen here: which
 * services, which capabilities, a per-commit limit (beyond it a commit needs consent), a total
 * spend, an expiry, and (docs/extensions.md §E4) how many of the listed people must approve each
 * commit.
 */
export function GrantForm(props: {
  keys: BrowserKeys;
  approvers: Approver[];
  issued(token: string): void;
}) {
  const [services, setServices] = useState<Record<string, boolean>>({ calendar: true, shop: true });
  const [can, setCan] = useState('calendar.*, shop.*');
  const [per, setPer] = useState('30.00');
  const [spend, setSpend] = useState('200.00');
  const [expiry, setExpiry] = useState('86400');
  const [need, setNeed] = useState('0');
  const people = props.approvers;
  // A choice made with more people listed falls back to none when people were removed.
  const needed = Number(need) <= people.length ? Number(need) : 0;
  const [problem, setProblem] = useState<string | undefined>(undefined);

  const submit = async (event: Event): Promise<void> => {
    event.preventDefault();
    const svc = SERVICE_NAMES.filter((name) => services[name]).map((name) => SERVICES[name].id);
    const patterns = can
      .split(',')
      .map((p) => p.trim())
      .filter((p) => p !== '');
    // §E4: with approvals every commit waits for the people listed; a per-commit limit would only
    // add the principal's consent on top, which their approvals cannot stand in for.
    const perText = needed > 0 ? '' : per.trim();
    const perCents = perText === '' ? undefined : cents(perText);
    const spendCents = spend.trim() === '' ? undefined : cents(spend);
    if (svc.length === 0) return setProblem('Choose at least one service.');
    if (patterns.length === 0) return setProblem('Name at least one capability, or * for all.');
    if (perCents === undefined && perText !== '')
      return setProblem('The per-commit limit must be an amount such as 30.00.');
    if (spendCents === undefined && spend.trim() !== '')
      return setProblem('The total spend must be an amount such as 200.00.');
    const now = Math.floor(Date.now() / 1000);
    const caveats: Caveat[] = [{ svc }, { can: patterns }, { exp: now + Number(expiry) }];
    if (perCents !== undefined) caveats.push({ per: { max: perCents, currency: 'USD' } });
    if (spendCents !== undefined) caveats.push({ spend: { max: spendCents, currency: 'USD' } });
    if (needed > 0) {
      // §E4: the caveat type of @parley/protocol lists the core caveats only.
      const approvals = { of: people.map((p) => p.publicKey), need: needed };
      caveats.push({ approvals } as unknown as Caveat);
    }
    setProblem(undefined);
    const grant = await issueGrant(props.keys.principal, { sub: props.keys.agentKey, caveats });
    props.issued(encodeGrant(grant));
  };

  return (
    <form class="grant-form" onSubmit={submit} aria-labelledby="grant-form-title">
      <h3 id="grant-form-title">Give the agent a grant</h3>
      <fieldset>
        <legend>Services</legend>
        {SERVICE_NAMES.map((name) => (
          <label key={name} class="check">
            <input
              type="checkbox"
              checked={services[name] === true}
              onChange={(event) =>
                setServices({ ...services, [name]: event.currentTarget.checked })
              }
            />
            {SERVICES[name].name} <code>{SERVICES[name].id}</code>
          </label>
        ))}
      </fieldset>
      <label for="grant-can">Capabilities</label>
      <input id="grant-can" value={can} onInput={(e) => setCan(e.currentTarget.value)} />
      {people.length > 0 && (
        <>
          <label for="grant-approvals">Before each commit, approval by</label>
          <select
            id="grant-approvals"
            value={String(needed)}
            onChange={(e) => setNeed(e.currentTarget.value)}
            aria-describedby="grant-approvals-help"
          >
            <option value="0">no one else (you, over the per-commit limit)</option>
            {people.map((_, i) => (
              <option key={i} value={String(i + 1)}>
                {i + 1} of the {people.length} people listed
              </option>
            ))}
          </select>
          <p id="grant-approvals-help" class="muted small">
            With approvals, every commit waits until that many of{' '}
            {people.map((p) => p.name).join(', ')} approved exactly that proposal (§E4).
          </p>
        </>
      )}
      <div class="row">
        <div>
          <label for="grant-per">Per commit (USD)</label>
          <input
            id="grant-per"
            disabled={needed > 0}
            inputMode="decimal"
            value={per}
            onInput={(e) => setPer(e.currentTarget.value)}
            aria-describedby="grant-per-help"
          />
        </div>
        <div>
          <label for="grant-spend">Total spend (USD)</label>
          <input
            id="grant-spend"
            inputMode="decimal"
            value={spend}
            onInput={(e) => setSpend(e.currentTarget.value)}
          />
        </div>
      </div>
      <p id="grant-per-help" class="muted small">
        {needed > 0
          ? 'The people’s approvals take the place of a per-commit limit; the total spend still holds.'
          : 'A commit that costs more than the per-commit limit asks you first (consent, §6.6).'}
      </p>
      <label for="grant-exp">Expires after</label>
      <select id="grant-exp" value={expiry} onChange={(e) => setExpiry(e.currentTarget.value)}>
        {EXPIRIES.map(([label, seconds]) => (
          <option key={seconds} value={String(seconds)}>
            {label}
          </option>
        ))}
      </select>
      {problem !== undefined && (
        <p class="problem" role="alert">
          {problem}
        </p>
      )}
      <button type="submit" class="primary">
        Sign the grant with the principal key
      </button>
    </form>
  );
}
