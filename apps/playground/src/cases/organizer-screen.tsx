import { useState } from 'preact/hooks';
import { type CaseView, callCase } from './cases-client.js';
import { ProgressList, stateWords } from './progress-list.js';
import { ReceiptBox } from './receipt-box.js';

/** The initiator's page: progress, the links to hand over, and what only the initiator may do. */
export function OrganizerScreen(props: {
  view: CaseView;
  token: string;
  onChange(view: CaseView): void;
}) {
  const { view, token } = props;
  const [note, setNote] = useState<string | null>(null);
  const act = async (route: string, body: unknown, done: string) => {
    try {
      await callCase(route, token, body);
      setNote(done);
      if (route !== 'delete') props.onChange((await callCase('case', token)) as CaseView);
    } catch (error) {
      setNote(error instanceof Error ? error.message : String(error));
    }
  };
  const finished = ['agreed', 'rejected', 'deadlocked', 'cancelled'].includes(view.state);
  return (
    <>
      <section class="card" aria-labelledby="progress-title">
        <h2 id="progress-title">Progress</h2>
        <p class="state-words">{stateWords(view)}</p>
        <ProgressList view={view} />
        <p class="small muted">You see names and progress only: nobody's answers or rules.</p>
      </section>
      <section class="card" aria-labelledby="outbox-title">
        <h2 id="outbox-title">Links to hand over</h2>
        <p class="small muted">
          Send each person their own link privately. A new link replaces the old one.
        </p>
        <ul class="outbox">
          {(view.outbox ?? [])
            // The newest link of each person: a re-issued link replaces the earlier one.
            .filter(
              (m, i, all) =>
                m.link !== null &&
                !all.slice(i + 1).some((n) => n.party === m.party && n.link !== null),
            )
            .map((m) => {
              const live = view.links?.find((l) => l.party === m.party)?.live === true;
              return (
                <li key={m.id} data-live={String(live)}>
                  <strong>{m.to}</strong>
                  <input readOnly value={m.link ?? ''} aria-label={`Link for ${m.to}`} />
                </li>
              );
            })}
        </ul>
        {!finished && (
          <div class="actions">
            {(view.links ?? []).map((l) => (
              <span key={l.party} class="pair">
                <button
                  type="button"
                  onClick={() =>
                    act('reissue', { party: l.party }, `A new link for ${l.name} is in the list.`)
                  }
                >
                  New link for {l.name}
                </button>
                {l.live && (
                  <button
                    type="button"
                    class="link danger"
                    onClick={() =>
                      act('revoke', { party: l.party }, `${l.name}'s link no longer works.`)
                    }
                  >
                    Stop {l.name}'s link
                  </button>
                )}
              </span>
            ))}
          </div>
        )}
      </section>
      {view.state === 'revising' && (
        <section class="card">
          <h2>Close the case</h2>
          <p>
            Nobody has to change their rules. You can close the case now with an honest receipt.
          </p>
          <button type="button" onClick={() => act('close', {}, 'The case is closed.')}>
            Close without agreement
          </button>
        </section>
      )}
      <ReceiptBox view={view} token={token} />
      <section class="card">
        <h2>Stop or delete</h2>
        <div class="actions">
          {!finished && (
            <button type="button" onClick={() => act('cancel', {}, 'The case is cancelled.')}>
              Cancel the case
            </button>
          )}
          <button
            type="button"
            class="link danger"
            onClick={() => act('delete', {}, 'The case is deleted. Nothing of it is kept.')}
          >
            Delete the case and everything in it
          </button>
        </div>
      </section>
      <p aria-live="polite" class="note">
        {note}
      </p>
    </>
  );
}
