import { type ConsentRequest, renderConsent } from '@parley/protocol';
import { useEffect, useRef } from 'preact/hooks';

/**
 * §6.6: the consent screen, from the same rendering as `parley approve` (renderConsent of
 * @parley/protocol): every fact comes from the proposal the agent received and checked, and every
 * string from the service is escaped. Approving is the only way the principal key signs it.
 */
export function ConsentDialog(props: {
  request: ConsentRequest;
  approve(): void;
  decline(): void;
}) {
  const dialog = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const element = dialog.current;
    if (element !== null && !element.open) element.showModal();
    return () => element?.close();
  }, []);
  const screen = renderConsent(props.request, Math.floor(Date.now() / 1000));
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
      <h2 id="consent-title">Approve this commit?</h2>
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
      <p class="signs">{screen.signs.join(' ')}</p>
      <div class="actions">
        <button type="button" class="primary" onClick={props.approve}>
          Approve and sign
        </button>
        <button type="button" onClick={props.decline}>
          Decline
        </button>
      </div>
    </dialog>
  );
}
