import { useEffect, useState } from 'preact/hooks';
import { OptionsLeft } from '../ui/options-left.js';
import { type CaseView, callCase, optionWords } from './cases-client.js';
import { EvidenceSection } from './evidence-section.js';
import { InterviewSection } from './interview-section.js';
import { ProgressList, stateWords } from './progress-list.js';
import { ReceiptBox } from './receipt-box.js';

type Change = (view: CaseView) => void;

/** One party's page: their private work, the proposal, and the receipt. */
export function PartyScreen(props: { view: CaseView; token: string; onChange: Change }) {
  const { view, token, onChange } = props;
  const you = view.you as NonNullable<CaseView['you']>;
  const [note, setNote] = useState<string | null>(null);
  const [rejectNote, setRejectNote] = useState('');
  // A note about the last act belongs to the state it was made in.
  useEffect(() => setNote(null), [view.state, view.round]);
  const act = async (route: string, body: unknown, done: string) => {
    try {
      onChange((await callCase(route, token, body)) as CaseView);
      setNote(done);
    } catch (error) {
      setNote(error instanceof Error ? error.message : String(error));
    }
  };
  const finished = ['agreed', 'rejected', 'deadlocked', 'cancelled'].includes(view.state);
  const canRevise = view.round < 3 && (view.state === 'ratifying' || view.state === 'revising');
  const hash = view.proposal?.transcript_sha256;
  // What the person's own confirmed limits leave: after a deadlock, whether loosening could help.
  const ownLeft = (
    <OptionsLeft
      left={you.sheet_confirmed?.options_left ?? null}
      total={view.options.length}
      noun="confirmed limits"
    />
  );
  return (
    <>
      <section class="card" aria-labelledby="where-title">
        <h2 id="where-title">Hello {you.name}</h2>
        <p class="state-words">{stateWords(view)}</p>
        <ProgressList view={view} />
      </section>
      {view.state === 'eliciting' && you.sheet !== 'confirmed' && (
        <InterviewSection view={view} token={token} onChange={onChange} />
      )}
      {view.state === 'eliciting' && you.sheet === 'confirmed' && (
        <section class="card" aria-labelledby="waiting-title">
          <h2 id="waiting-title">Your rules are confirmed</h2>
          <p>
            When everyone has confirmed, Parley looks for an option that crosses no one's limits.
          </p>
          {/* 03-private-elicitation: confirmation records the rendering the person read, so it
              is shown as recorded (it opens "Sheet draft for …"); this line says what it is. */}
          <p class="small muted">
            Your confirmed sheet, exactly as you read it when you confirmed:
          </p>
          <pre class="own-rules">{you.sheet_confirmed?.rendered}</pre>
          {ownLeft}
          <button
            type="button"
            class="link"
            onClick={() => act('revise', {}, 'Your rules are open again.')}
          >
            Change my rules
          </button>
        </section>
      )}
      {view.state === 'ratifying' && view.proposal !== null && (
        <section class="card proposal" aria-labelledby="proposal-title">
          <h2 id="proposal-title">The proposal</h2>
          <p class="option">{optionWords(view.proposal.decision)}</p>
          <p class="small muted">
            It meets every person's limits. Read it in full before you decide. Parley is not legal
            advice; accepting here is not a signature on a contract.
          </p>
          {you.answer === 'none' ? (
            <>
              <div class="actions">
                <button
                  type="button"
                  class="primary big accept"
                  onClick={() => act('accept', { proposal: hash }, 'You accepted.')}
                >
                  I accept this proposal
                </button>
              </div>
              <label for="reject-note">A note for yourself (optional, nobody else sees it)</label>
              <textarea
                id="reject-note"
                rows={2}
                value={rejectNote}
                onInput={(e) => setRejectNote((e.currentTarget as HTMLTextAreaElement).value)}
              />
              <div class="actions">
                <button
                  type="button"
                  onClick={() =>
                    act('reject', { proposal: hash, note: rejectNote }, 'You did not accept.')
                  }
                >
                  I do not accept
                </button>
                {canRevise && (
                  <button
                    type="button"
                    class="link"
                    onClick={() =>
                      act('revise', {}, 'Your rules are open again; the proposal is withdrawn.')
                    }
                  >
                    Change my rules privately
                  </button>
                )}
              </div>
            </>
          ) : (
            <p>
              You {you.answer === 'accepted' ? 'accepted' : 'did not accept'}. Waiting for the
              others.
            </p>
          )}
        </section>
      )}
      {view.state === 'revising' && (
        <section class="card" aria-labelledby="revising-title">
          <h2 id="revising-title">This round ended</h2>
          <p>
            {canRevise
              ? 'If you want, you can change your own rules privately; a new round starts. You do not have to.'
              : 'No rounds are left.'}
          </p>
          {canRevise && ownLeft}
          {canRevise && (
            <button type="button" onClick={() => act('revise', {}, 'Your rules are open again.')}>
              Change my rules privately
            </button>
          )}
        </section>
      )}
      {!finished && <EvidenceSection view={view} token={token} onChange={onChange} />}
      {finished && <ReceiptBox view={view} token={token} />}
      <p aria-live="polite" class="note">
        {note}
      </p>
    </>
  );
}
