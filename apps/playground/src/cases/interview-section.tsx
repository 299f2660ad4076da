import {
  attributeCatalog,
  type Constraint,
  type PyObject,
  parseRule,
  redLinesLeave,
  ruleExamples,
  safeText,
} from '@parley/consensus';
import { useState } from 'preact/hooks';
import { OptionsLeft } from '../ui/options-left.js';
import { type CaseView, callCase, type DraftShown } from './cases-client.js';
import { type Edit, ItemEditor, limitWords, preferenceWords, QuestionItem } from './draft-items.js';

type Change = (view: CaseView) => void;

/** The private interview: six questions, the draft drawn from the answers, and confirmation. */
export function InterviewSection(props: { view: CaseView; token: string; onChange: Change }) {
  const { view, token, onChange } = props;
  const you = view.you as NonNullable<CaseView['you']>;
  const [note, setNote] = useState<string | null>(null);
  const [rule, setRule] = useState('');
  const [busy, setBusy] = useState(false);
  const catalog = attributeCatalog(view.options as PyObject[]);
  /** Calls one route; the refusal's sentence, or null (the view is then the new one). */
  const attempt = async (route: string, body: unknown, done: string | null = null) => {
    // Saving an answer never disables the buttons: the blur that saves it comes just before the
    // click on one of them.
    if (route !== 'answer') setBusy(true);
    try {
      onChange((await callCase(route, token, body)) as CaseView);
      setNote(done);
      return null;
    } catch (error) {
      return error instanceof Error ? error.message : String(error);
    } finally {
      if (route !== 'answer') setBusy(false);
    }
  };
  const run = async (route: string, body: unknown, done: string | null = null) => {
    const refused = await attempt(route, body, done);
    if (refused !== null) setNote(refused);
    return refused === null;
  };
  /** An edit of one item: its refusal is shown under that item, not in the note below. */
  const edit: Edit = (ops, done) => attempt('edit', { ops }, done);
  /** Saves every answer typed but not yet saved, in order, then asks for the draft. */
  const draftFromAnswers = async () => {
    for (const p of you.prompts) {
      const box = document.getElementById(`prompt-${p.id}`) as HTMLTextAreaElement | null;
      const text = box?.value ?? '';
      if (text !== (you.answers[p.id] ?? '') && !(await run('answer', { prompt: p.id, text })))
        return;
    }
    await run('draft', {}, 'Your draft is ready under "Your rules (draft)": check every rule.');
  };
  const addRule = async (event: Event) => {
    event.preventDefault();
    try {
      const parsed = parseRule(rule, catalog);
      const op =
        parsed.kind === 'hard'
          ? { op: 'add_hard', constraint: parsed.raw }
          : { op: 'add_soft', term: parsed.raw };
      if (await run('edit', { ops: [op] }, 'Rule added to your draft.')) setRule('');
    } catch (error) {
      setNote(error instanceof Error ? error.message : String(error));
    }
  };
  return (
    <section class="card interview" aria-labelledby="interview-title">
      <h2 id="interview-title">Your private position</h2>
      <p class="private-note">
        Only you see what you write here. The others never see your answers or your rules; they only
        learn whether an option works for everyone.
      </p>
      <ol class="prompts">
        {you.prompts.map((p) => (
          <li key={p.id}>
            <label for={`prompt-${p.id}`}>{p.question}</label>
            <textarea
              id={`prompt-${p.id}`}
              rows={2}
              value={you.answers[p.id] ?? ''}
              onBlur={(e) => {
                const text = (e.currentTarget as HTMLTextAreaElement).value;
                if (text !== (you.answers[p.id] ?? ''))
                  void run('answer', { prompt: p.id, text }, 'Answer saved.');
              }}
            />
          </li>
        ))}
      </ol>
      <div class="actions">
        <button type="button" disabled={busy} onClick={draftFromAnswers}>
          Draft my rules from my answers
        </button>
      </div>
      <form class="add-rule" onSubmit={addRule}>
        <label for="rule-text">
          {/* The examples name this case's own attributes, never another case's. */}
          Or write a rule yourself (for example: {ruleExamples(catalog).slice(0, 2).join(', or ')})
        </label>
        <div class="row">
          <input
            id="rule-text"
            value={rule}
            onInput={(e) => setRule((e.currentTarget as HTMLInputElement).value)}
          />
          <button type="submit" disabled={busy || rule.trim() === ''}>
            Add
          </button>
        </div>
      </form>
      {you.draft !== null && (
        <DraftReview
          draft={you.draft}
          options={view.options as PyObject[]}
          busy={busy}
          run={run}
          edit={edit}
          catalog={catalog}
        />
      )}
      <p aria-live="polite" class="note">
        {note}
      </p>
    </section>
  );
}

function DraftReview(props: {
  draft: DraftShown;
  options: readonly PyObject[];
  busy: boolean;
  run(route: string, body: unknown, done?: string | null): Promise<boolean>;
  edit: Edit;
  catalog: ReturnType<typeof attributeCatalog>;
}) {
  const { draft, run, edit, catalog, busy } = props;
  const [checked, setChecked] = useState<Record<string, boolean>>({});
  const all = draft.hard.every((h) => checked[`${draft.version}:${h.id}`] === true);
  const words = limitWords;
  return (
    <div class="draft">
      <h3>Your rules (draft)</h3>
      <h4>Limits: an option that breaks one of these is never proposed to you</h4>
      {draft.hard.length === 0 && <p class="muted">No limits yet.</p>}
      <ul class="rules hard">
        {draft.hard.map((h) => (
          <li key={`${draft.version}-${h.id}`} data-id={h.id}>
            <label class="check">
              <input
                type="checkbox"
                checked={checked[`${draft.version}:${h.id}`] === true}
                onChange={(e) =>
                  setChecked({
                    ...checked,
                    [`${draft.version}:${h.id}`]: (e.currentTarget as HTMLInputElement).checked,
                  })
                }
              />
              <span class="rule-text">I confirm: {words(h.constraint)}</span>
            </label>
            <ItemEditor item={h} catalog={catalog} busy={busy} edit={edit}>
              <button
                type="button"
                class="link danger"
                aria-label={`Remove ${words(h.constraint)}`}
                onClick={() => run('edit', { ops: [{ op: 'remove', item_id: h.id }] })}
              >
                Remove
              </button>
            </ItemEditor>
          </li>
        ))}
      </ul>
      <OptionsLeft
        left={redLinesLeave(
          draft.hard.map((h) => h.constraint as Constraint),
          props.options,
        )}
        total={props.options.length}
        noun="limits"
      />
      <h4>Preferences: used to choose among options that work for everyone</h4>
      {draft.utility.length === 0 && <p class="muted">No preferences yet.</p>}
      <ul class="rules soft">
        {draft.utility.map((s) => (
          <li key={`${draft.version}-${s.id}`} data-id={s.id}>
            <span class="rule-text">{preferenceWords(s.term)}</span>
            <ItemEditor item={s} catalog={catalog} busy={busy} edit={edit}>
              <button
                type="button"
                class="link danger"
                aria-label={`Remove preference ${s.term.attr}`}
                onClick={() => run('edit', { ops: [{ op: 'remove', item_id: s.id }] })}
              >
                Remove
              </button>
            </ItemEditor>
          </li>
        ))}
      </ul>
      {draft.claims.length > 0 && (
        <>
          <h4>May be shared with the others: drop any you would not share</h4>
          {/* 03-private-elicitation: every extracted item, a claim too, can be removed before
              confirming; the engine's remove_claim names the claim by its text. */}
          <ul class="rules claims">
            {draft.claims.map((claim, i) => (
              <li key={`${draft.version}-c${i + 1}`} data-id={`c${i + 1}`}>
                <span class="rule-text">{safeText(claim)}</span>
                <button
                  type="button"
                  class="link danger"
                  aria-label={`Drop claim c${i + 1}`}
                  onClick={() => run('edit', { ops: [{ op: 'remove_claim', claim }] })}
                >
                  Drop
                </button>
              </li>
            ))}
          </ul>
        </>
      )}
      {draft.clarifications.length > 0 && (
        <>
          <h4>Questions back to you: answer each with a rule, or skip it</h4>
          {/* 03-private-elicitation: ambiguity is a question to its owner; the answer becomes a
              rule through the engine's own resolve change. */}
          <ul class="questions">
            {draft.clarifications.map((q) => (
              <QuestionItem
                key={`${draft.version}-${q.id}`}
                question={q}
                catalog={catalog}
                busy={busy}
                edit={edit}
              />
            ))}
          </ul>
        </>
      )}
      {draft.rejected.length > 0 && (
        <details class="rejected">
          <summary>
            {draft.rejected.length} proposed but not used (not valid; never part of your rules)
          </summary>
          <ul>
            {draft.rejected.map((r, i) => (
              <li key={`${draft.version}-r${i}`}>
                {safeText(r.reason)} <code>{safeText(r.raw)}</code>
              </li>
            ))}
          </ul>
        </details>
      )}
      <div class="confirm">
        <p class="small muted">
          Confirming makes these rules binding for this round. Only checked limits are confirmed;
          check each one you mean.
        </p>
        <button
          type="button"
          class="primary big"
          disabled={props.busy || !all || draft.clarifications.length > 0}
          onClick={() =>
            run(
              'confirm',
              { hard: draft.hard.map((h) => h.id), version: draft.version },
              'Your rules are confirmed.',
            )
          }
        >
          Confirm my rules
        </button>
      </div>
    </div>
  );
}
