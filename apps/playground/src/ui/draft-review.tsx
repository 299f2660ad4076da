import {
  attributeCatalog,
  type Change,
  clarificationLine,
  constraintRule,
  describeConstraint,
  type HardItem,
  hardLine,
  type PromptId,
  type PyObject,
  parseRule,
  questionOf,
  redLinesLeave,
  type SheetDraft,
  type SoftItem,
  safeText,
  softLine,
  termRule,
} from '@parley/consensus';
import { useState } from 'preact/hooks';
import { OptionsLeft } from './options-left.js';

type Props = {
  draft: SheetDraft;
  options: readonly PyObject[];
  /** Applies one change; returns the refusal's sentence, or null. */
  revise: (change: Change) => string | null;
  confirm: (ids: string[]) => string | null;
};

function Source(props: { draft: SheetDraft; source: PromptId | null }) {
  if (props.source === null) return null;
  return (
    <blockquote class="source">
      <span class="muted">from “{questionOf(props.source)}”</span>{' '}
      {props.draft.answers[props.source]}
    </blockquote>
  );
}

/** One rule of the draft: its words, the answer it came from, and Fix / Drop. */
function Rule(props: {
  item: HardItem | SoftItem;
  draft: SheetDraft;
  options: readonly PyObject[];
  revise: Props['revise'];
}) {
  const { item } = props;
  const hard = 'constraint' in item;
  const [editing, setEditing] = useState<string | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const save = (event: Event): void => {
    event.preventDefault();
    try {
      const rule = parseRule(editing ?? '', attributeCatalog(props.options));
      const change: Change =
        rule.kind === 'hard'
          ? hard
            ? { op: 'set', item_id: item.id, constraint: rule.raw }
            : { op: 'reclassify', item_id: item.id, constraint: rule.raw }
          : hard
            ? { op: 'reclassify', item_id: item.id, term: rule.raw }
            : { op: 'set', item_id: item.id, term: rule.raw };
      const refused = props.revise(change);
      setProblem(refused);
      if (refused === null) setEditing(null);
    } catch (error) {
      setProblem((error as Error).message);
    }
  };
  return (
    <li class="rule" data-id={item.id}>
      <code class="rule-text">
        {hard ? hardLine(item as HardItem) : softLine(item as SoftItem)}
      </code>
      <Source draft={props.draft} source={item.source} />
      {editing === null ? (
        <div class="rule-actions">
          <button
            type="button"
            aria-label={`Fix ${item.id}`}
            onClick={() =>
              setEditing(
                hard
                  ? constraintRule((item as HardItem).constraint)
                  : termRule((item as SoftItem).term),
              )
            }
          >
            Fix
          </button>
          <button
            type="button"
            aria-label={`Drop ${item.id}`}
            onClick={() => setProblem(props.revise({ op: 'remove', item_id: item.id }))}
          >
            Drop
          </button>
        </div>
      ) : (
        <form class="rule-edit" onSubmit={save}>
          <label for={`fix-${item.id}`}>Rule for {item.id}</label>
          <input
            id={`fix-${item.id}`}
            value={editing}
            onInput={(e) => setEditing(e.currentTarget.value)}
          />
          <button type="submit" class="primary">
            Save
          </button>
          <button type="button" onClick={() => setEditing(null)}>
            Cancel
          </button>
        </form>
      )}
      {problem !== null && (
        <p class="problem" role="alert">
          {problem}
        </p>
      )}
    </li>
  );
}

/** A question back to the person: answered with a rule, or skipped. */
function Question(props: {
  draft: SheetDraft;
  id: string;
  options: readonly PyObject[];
  revise: Props['revise'];
}) {
  const question = props.draft.clarifications.find((q) => q.id === props.id);
  const [text, setText] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  if (question === undefined) return null;
  const answer = (event: Event): void => {
    event.preventDefault();
    try {
      const rule = parseRule(text, attributeCatalog(props.options));
      setProblem(
        props.revise(
          rule.kind === 'hard'
            ? { op: 'resolve', item_id: question.id, as_hard: rule.raw }
            : { op: 'resolve', item_id: question.id, as_soft: rule.raw },
        ),
      );
    } catch (error) {
      setProblem((error as Error).message);
    }
  };
  return (
    <li class="question" data-id={question.id}>
      <p>{clarificationLine(question)}</p>
      <Source draft={props.draft} source={question.source} />
      <form class="rule-edit" onSubmit={answer}>
        <label for={`answer-${question.id}`}>Your answer as a rule</label>
        <input
          id={`answer-${question.id}`}
          placeholder="cost <= 60"
          value={text}
          onInput={(e) => setText(e.currentTarget.value)}
        />
        <button type="submit" class="primary">
          Use
        </button>
        <button
          type="button"
          onClick={() =>
            setProblem(props.revise({ op: 'resolve', item_id: question.id, drop: true }))
          }
        >
          Skip
        </button>
      </form>
      {problem !== null && (
        <p class="problem" role="alert">
          {problem}
        </p>
      )}
    </li>
  );
}

/**
 * The draft as rules the person reads: red lines and preferences with the answers they came
 * from, the claims that may be shared (each can be dropped: the party file records them), questions
 * back, what was proposed but not used; drop, fix, add; then confirmation by ticking every red
 * line of this exact version.
 */
export function DraftReview(props: Props) {
  const { draft } = props;
  const [ticked, setTicked] = useState<string[]>([]);
  const [adding, setAdding] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const live = ticked.filter((id) => draft.hard.some((h) => h.id === id));
  const ready = draft.clarifications.length === 0 && live.length === draft.hard.length;
  const add = (event: Event): void => {
    event.preventDefault();
    try {
      const rule = parseRule(adding, attributeCatalog(props.options));
      const refused = props.revise(
        rule.kind === 'hard'
          ? { op: 'add_hard', constraint: rule.raw }
          : { op: 'add_soft', term: rule.raw },
      );
      setProblem(refused);
      if (refused === null) setAdding('');
    } catch (error) {
      setProblem((error as Error).message);
    }
  };
  return (
    <div class="draft-review" data-version={draft.version}>
      <h4>Red lines: never crossed</h4>
      {draft.hard.length === 0 && <p class="muted">None.</p>}
      <ul class="rules hard">
        {draft.hard.map((h) => (
          <Rule
            key={`${draft.version}-${h.id}`}
            item={h}
            draft={draft}
            options={props.options}
            revise={props.revise}
          />
        ))}
      </ul>
      <OptionsLeft
        left={redLinesLeave(
          draft.hard.map((h) => h.constraint),
          props.options,
        )}
        total={props.options.length}
      />
      <h4>Preferences: how options are scored</h4>
      {draft.utility.length === 0 && <p class="muted">None.</p>}
      <ul class="rules soft">
        {draft.utility.map((s) => (
          <Rule
            key={`${draft.version}-${s.id}`}
            item={s}
            draft={draft}
            options={props.options}
            revise={props.revise}
          />
        ))}
      </ul>
      {draft.claims.length > 0 && (
        <>
          <h4>May be shared with the others: drop any you would not share</h4>
          <ul class="rules claims">
            {draft.claims.map((claim, i) => (
              <li key={`${draft.version}-c${i + 1}`} class="rule" data-id={`c${i + 1}`}>
                <span class="rule-text">{safeText(claim)}</span>
                <div class="rule-actions">
                  <button
                    type="button"
                    aria-label={`Drop claim c${i + 1}`}
                    onClick={() => setProblem(props.revise({ op: 'remove_claim', claim }))}
                  >
                    Drop
                  </button>
                </div>
              </li>
            ))}
          </ul>
        </>
      )}
      {draft.clarifications.length > 0 && (
        <>
          <h4>Questions back to you</h4>
          <ul class="rules questions">
            {draft.clarifications.map((q) => (
              <Question
                key={`${draft.version}-${q.id}`}
                draft={draft}
                id={q.id}
                options={props.options}
                revise={props.revise}
              />
            ))}
          </ul>
        </>
      )}
      {draft.rejected.length > 0 && (
        <details class="rejected">
          <summary>
            {draft.rejected.length} proposed but not used (not valid; never part of your sheet)
          </summary>
          <ul>
            {draft.rejected.map((r, i) => (
              <li key={i}>
                {safeText(r.reason)} <code>{safeText(r.raw)}</code>
              </li>
            ))}
          </ul>
        </details>
      )}
      <form class="rule-edit add-rule" onSubmit={add}>
        <label for="add-rule">Add a rule</label>
        <input
          id="add-rule"
          placeholder="novelty >= 5, or prefer lower cost"
          value={adding}
          onInput={(e) => setAdding(e.currentTarget.value)}
        />
        <button type="submit">Add</button>
      </form>
      {problem !== null && (
        <p class="problem" role="alert">
          {problem}
        </p>
      )}
      <fieldset class="confirm">
        <legend>
          Confirm version <code title={draft.version}>{draft.version.slice(0, 12)}</code>
        </legend>
        {draft.hard.map((h) => (
          <label key={`${draft.version}-${h.id}`} class="check">
            <input
              type="checkbox"
              checked={live.includes(h.id)}
              onChange={(e) =>
                setTicked(
                  e.currentTarget.checked ? [...live, h.id] : live.filter((id) => id !== h.id),
                )
              }
            />{' '}
            {h.id} must hold: {describeConstraint(h.constraint)}
          </label>
        ))}
        {draft.clarifications.length > 0 && (
          <p class="muted">Answer or skip every question first.</p>
        )}
        <button
          type="button"
          class="primary"
          disabled={!ready}
          onClick={() => setProblem(props.confirm(live))}
        >
          Confirm my sheet
        </button>
      </fieldset>
    </div>
  );
}
