import { useState } from 'preact/hooks';
import type { Approver } from '../protocol/approvers.js';
import type { BrowserKeys, UsedConsent } from '../protocol/browser-keys.js';
import { grantSummary, keyLabel } from '../protocol/grant-text.js';
import { pair } from '../protocol/pairing.js';
import { ApproversPanel } from './approvers-panel.js';
import { GrantForm } from './grant-form.js';

const shortKey = (key: string): string => keyLabel(key);

function PairingCard(props: { principalKey: string; paired(): void }) {
  const [code, setCode] = useState('');
  const [problem, setProblem] = useState<string | undefined>(undefined);
  const [busy, setBusy] = useState(false);
  return (
    <form
      class="card pairing"
      aria-labelledby="pairing-title"
      onSubmit={async (event) => {
        event.preventDefault();
        setBusy(true);
        try {
          await pair(props.principalKey, code);
          props.paired();
        } catch (error) {
          setProblem(error instanceof Error ? error.message : String(error));
        } finally {
          setBusy(false);
        }
      }}
    >
      <h3 id="pairing-title">First: pair this page</h3>
      <p>
        The calendar and the shop honour grants only from principals they trust. Type the pairing
        code that <code>npm start</code> printed in its terminal, so they trust this page's
        principal key.
      </p>
      <label for="pairing-code">Pairing code</label>
      <div class="inline">
        <input
          id="pairing-code"
          autoComplete="off"
          spellcheck={false}
          placeholder="XXXX-XXXX"
          value={code}
          onInput={(e) => setCode(e.currentTarget.value)}
          aria-describedby={problem === undefined ? undefined : 'pairing-problem'}
        />
        <button type="submit" class="primary" disabled={busy || code.trim() === ''}>
          Pair
        </button>
      </div>
      {problem !== undefined && (
        <p id="pairing-problem" class="problem" role="alert">
          {problem}
        </p>
      )}
    </form>
  );
}

/**
 * The principal's side: keys, pairing, the people who approve together (docs/extensions.md §E4),
 * grants given to the agent.
 */
export function PrincipalPanel(props: {
  keys: BrowserKeys;
  approvers: Approver[];
  approversChanged(next: Approver[]): void;
  removeApprover(publicKey: string): void;
  paired: boolean | undefined;
  onPaired(): void;
  grants: string[];
  used: UsedConsent[];
  issued(token: string): void;
  remove(token: string): void;
  newKeys(): void;
}) {
  const { keys } = props;
  const nameOf = (key: string): string | undefined =>
    key === keys.principalKey ? 'you' : props.approvers.find((a) => a.publicKey === key)?.name;
  const grants = props.grants.map((token) => grantSummary(token, nameOf));
  const used = props.used.map((u) => ({ ...grantSummary(u.token, nameOf), receipt: u.receipt }));
  return (
    <section class="principal" aria-labelledby="principal-title">
      <h2 id="principal-title">Principal (you)</h2>
      <dl class="keys">
        <div>
          <dt>Principal key</dt>
          <dd>
            <code title={keys.principalKey}>{shortKey(keys.principalKey)}</code>
          </dd>
        </div>
        <div>
          <dt>Agent key</dt>
          <dd>
            <code title={keys.agentKey}>{shortKey(keys.agentKey)}</code>
          </dd>
        </div>
      </dl>
      <p class="muted small">
        Made in this browser (WebCrypto Ed25519) and kept only here. The principal key signs only
        when you press a button.
      </p>
      {props.paired === false && (
        <PairingCard principalKey={keys.principalKey} paired={props.onPaired} />
      )}
      {props.paired === undefined && (
        <p class="problem" role="alert">
          The page server does not answer. Is <code>npm start</code> running?
        </p>
      )}
      {props.paired === true && (
        <p class="ok-note">
          <span aria-hidden="true">✓ </span>Paired: the calendar and the shop trust this principal.
        </p>
      )}
      {props.paired === true && (
        <ApproversPanel
          approvers={props.approvers}
          changed={props.approversChanged}
          remove={props.removeApprover}
        />
      )}
      {props.paired === true && (
        <GrantForm keys={keys} approvers={props.approvers} issued={props.issued} />
      )}
      <section aria-labelledby="grants-title" class="grants">
        <h3 id="grants-title">The agent's grants</h3>
        {grants.length === 0 ? (
          <p class="muted">None yet: without a grant the agent can look, but not act.</p>
        ) : (
          <ul>
            {grants.map((g) => (
              <li key={g.id} class={g.consent ? 'consent-grant' : ''}>
                <div class="grant-head">
                  <strong>{g.consent ? `One-shot consent by ${g.issuer}` : 'Grant'}</strong>{' '}
                  <code title={g.id}>{g.id.slice(0, 10)}…</code>
                  <button
                    type="button"
                    class="link"
                    onClick={() => props.remove(g.token)}
                    aria-label={`Remove grant ${g.id.slice(0, 10)}`}
                  >
                    remove
                  </button>
                </div>
                <ul class="caveats">
                  {g.caveats.map((c) => (
                    <li key={c}>{c}</li>
                  ))}
                </ul>
              </li>
            ))}
          </ul>
        )}
        {used.length > 0 && (
          <>
            <h4 id="used-title">Used one-shot consents</h4>
            <p class="muted small">
              Each allowed one COMMIT of one proposal and is now spent: it authorizes nothing more.
            </p>
            <ul aria-labelledby="used-title">
              {used.map((g) => (
                <li key={g.id} class="consent-grant used">
                  <div class="grant-head">
                    <strong>Used</strong> <code title={g.id}>{g.id.slice(0, 10)}…</code>
                  </div>
                  <p class="small">
                    signed by {g.issuer}; by receipt {g.receipt}
                  </p>
                </li>
              ))}
            </ul>
          </>
        )}
      </section>
      <button type="button" class="link danger" onClick={props.newKeys}>
        Make new keys (forgets the grants; pair again)
      </button>
    </section>
  );
}
