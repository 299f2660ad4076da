import { type ConsentRequest, renderConsent } from '@parley/protocol';
import { useEffect, useRef } from 'preact/hooks';
import type { Approver } from '../protocol/approvers.js';
import { keyLabel } from '../protocol/grant-text.js';

/**
 * §6.6: the consent screen, from the same rendering as `parley approve` (renderConsent of
 * @parley/protocol): every fact comes from the proposal the agent received and checked, and every
 * string from the service is escaped. Approving is the only way the principal key signs it.
 * When the grant needs approvals by several people (docs/extensions.md §E4), the screen says how
 * many there are so far and each listed person held in this browser approves with their own key;
 * the principal key does not sign then, so the rule the principal set holds.
 */
export function ConsentDialog(props: {
  request: ConsentRequest;
  /** The people this page holds keys for. */
  approvers: Approver[];
  /** The keys whose consent for this proposal the agent already holds. */
  approved: ReadonlySet<string>;
  approve(as?: Approver): void;
  decline(): void;
}) {
  const dialog = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const element = dialog.current;
    if (element !== null && !element.open) element.showModal();
    return () => element?.close();
  }, []);
  const screen = renderConsent(props.request, Math.floor(Date.now() / 1000));
  const listed = props.request.consent.approvals?.of;
  const held = (key: string) => props.approvers.find((a) => a.publicKey === key);
  const nameOf = (key: string) => held(key)?.name;
  const signs =
    listed === undefined
      ? screen.signs
      : [
          screen.signs[0]?.replace('with your principal key', 'with that person’s key') ?? '',
          ...screen.signs.slice(1),
        ];
  return (
    <dialog
      ref={dialog}
      class="consent"
      aria-labelledby="consent-title"
      aria-describedby="consent-heading"
      onCancel={(event) => {
        event.preventDefault();
        props.decline();
      }}
    >
      <h2 id="consent-title">
        {listed === undefined ? 'Approve this commit?' : 'Approvals for this commit'}
      </h2>
      <p id="consent-heading">{screen.heading}</p>
      {screen.warnings.map((w) => (
        <p key={w} class="problem">
          {w}
        </p>
      ))}
      <div class="consent-proposal">
        <h3>{screen.summary}</h3>
        <p class="muted">{screen.proposal}</p>
        <h4>What it will do</h4>
        {screen.effects.length === 0 ? (
          <p>(no effects declared)</p>
        ) : (
          <ul class="effects">
            {screen.effects.map((e) => (
              <li key={e}>
                <code>{e}</code>
              </li>
            ))}
          </ul>
        )}
        <dl class="facts">
          <div>
            <dt>Cost</dt>
            <dd>{screen.cost}</dd>
          </div>
          <div>
            <dt>Risk</dt>
            <dd>{screen.risk}</dd>
          </div>
          <div>
            <dt>Undo</dt>
            <dd>{screen.undo}</dd>
          </div>
          <div>
            <dt>Expires</dt>
            <dd>{screen.expires}</dd>
          </div>
        </dl>
      </div>
      {screen.reason.map((r) => (
        <p key={r} class="service-says">
          {r}
        </p>
      ))}
      {listed !== undefined && (
        <section class="approvals" aria-labelledby="approvals-title">
          <h3 id="approvals-title">Approvals: {screen.approvals}</h3>
          <ul>
            {listed.map((key) => {
              const person = held(key);
              const done = props.approved.has(key);
              return (
                <li key={key} class={done ? 'approved' : ''}>
                  <span>
                    <strong>{keyLabel(key, nameOf)}</strong>
                    {done && <span class="ok-mark"> ✓ approved</span>}
                    {!done && person === undefined && (
                      <span class="muted small"> not in this browser: they run parley approve</span>
                    )}
                  </span>
                  {!done && person !== undefined && (
                    <button type="button" class="primary" onClick={() => props.approve(person)}>
                      Approve as {person.name}
                    </button>
                  )}
                </li>
              );
            })}
          </ul>
        </section>
      )}
      <p class="signs">{signs.join(' ')}</p>
      <div class="actions">
        {listed === undefined && (
          <button type="button" class="primary" onClick={() => props.approve()}>
            Approve and sign
          </button>
        )}
        <button type="button" onClick={props.decline}>
          Decline
        </button>
      </div>
    </dialog>
  );
}
