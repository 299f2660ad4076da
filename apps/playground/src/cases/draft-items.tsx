import {
  type AttributeCatalog,
  type Constraint,
  constraintRule,
  type PyValue,
  parseRule,
  pyDumps,
  termRule,
  type UtilityTerm,
} from '@parley/consensus';
import type { ComponentChildren } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import type { DraftShown } from './cases-client.js';

/** Sends the engine's own changes (`reviseSheet` ops) through `edit`; the refusal, or null. */
export type Edit = (ops: unknown[], done: string) => Promise<string | null>;

type Hard = DraftShown['hard'][number];
type Soft = DraftShown['utility'][number];

/** `rent <= 1000` as the page shows a limit. */
export function limitWords(c: Hard['constraint']): string {
  return `${c.attr} ${c.op.replace('_', ' ')} ${JSON.stringify(c.value)}`;
}

/** `prefer lower rent (from 950 to 1100), weight 1` as the page shows a preference. */
export function preferenceWords(t: Soft['term']): string {
  const what =
    t.prefer !== null
      ? `prefer ${t.attr} ${JSON.stringify(t.prefer)}`
      : `prefer ${t.direction} ${t.attr} (from ${t.lo} to ${t.hi})`;
  return `${what}, weight ${t.weight}`;
}

/**
 * A starting text of the other kind for the person to edit and save (03-private-elicitation:
 * every extracted item can be reclassified). Only a suggestion in the box: the engine takes the
 * new form the person saves, never one derived from the old item.
 */
function otherKindText(item: Hard | Soft): string {
  if ('constraint' in item) {
    const { attr, op, value } = item.constraint;
    if (op === '<=' || op === '<') return `prefer lower ${attr}`;
    if (op === '>=' || op === '>') return `prefer higher ${attr}`;
    return `prefer ${attr} == ${op === '==' ? pyDumps(value as PyValue) : ''}`.trimEnd();
  }
  const { attr, direction, prefer, lo, hi } = item.term;
  if (prefer !== null) return `${attr} == ${pyDumps(prefer as PyValue)}`;
  return direction === 'lower' ? `${attr} <= ${hi}` : `${attr} >= ${lo}`;
}

/**
 * Fix or reclassify one limit or preference in place. Fix: the rule as the person would type
 * it, read by `parseRule` as "add a rule" reads it; a rule of the other kind reclassifies the
 * item. "Make it a …" opens the same box with a rule of the other kind to edit. The server
 * checks the result against the options (`reviseSheet` `set` / `reclassify`); a refusal is
 * shown under the item in one sentence and what was typed stays in the box.
 */
export function ItemEditor(props: {
  item: Hard | Soft;
  catalog: AttributeCatalog;
  busy: boolean;
  edit: Edit;
  /** The item's other actions (Remove), shown beside Fix while no box is open. */
  children?: ComponentChildren;
}) {
  const { item, catalog } = props;
  const hard = 'constraint' in item;
  const kind = hard ? 'limit' : 'preference';
  const other = hard ? 'preference' : 'limit';
  const words = hard ? limitWords((item as Hard).constraint) : preferenceWords((item as Soft).term);
  const [mode, setMode] = useState<'fix' | 'reclassify' | null>(null);
  const [text, setText] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const box = useRef<HTMLInputElement>(null);
  useEffect(() => {
    if (mode !== null) box.current?.focus();
  }, [mode]);
  const open = (next: 'fix' | 'reclassify') => {
    setMode(next);
    setProblem(null);
    setText(
      next === 'reclassify'
        ? otherKindText(item)
        : hard
          ? constraintRule((item as Hard).constraint as Constraint)
          : termRule((item as Soft).term as UtilityTerm),
    );
  };
  const save = async (event: Event) => {
    event.preventDefault();
    let parsed: ReturnType<typeof parseRule>;
    try {
      parsed = parseRule(text, catalog);
    } catch (error) {
      setProblem(error instanceof Error ? error.message : String(error));
      return;
    }
    const asHard = parsed.kind === 'hard';
    if (mode === 'reclassify' && asHard === hard) {
      setProblem(
        hard
          ? 'A preference starts with "prefer" (for example "prefer lower rent"); use Fix to keep it a limit.'
          : 'A limit compares a value (for example "rent <= 1000"); use Fix to keep it a preference.',
      );
      return;
    }
    const field = asHard ? { constraint: parsed.raw } : { term: parsed.raw };
    const op = asHard === hard ? 'set' : 'reclassify';
    const done = op === 'set' ? `Your ${kind} is changed.` : `Your ${kind} is now a ${other}.`;
    const refused = await props.edit([{ op, item_id: item.id, ...field }], done);
    setProblem(refused);
    if (refused === null) setMode(null);
  };
  return (
    <>
      {mode === null ? (
        <span class="item-actions">
          <button
            type="button"
            class="link"
            aria-label={`Fix ${words}`}
            onClick={() => open('fix')}
          >
            Fix
          </button>
          <button
            type="button"
            class="link"
            aria-label={`Make it a ${other}: ${words}`}
            onClick={() => open('reclassify')}
          >
            Make it a {other}
          </button>
          {props.children}
        </span>
      ) : (
        <form
          class="item-edit"
          onSubmit={save}
          onKeyDown={(e) => {
            if (e.key === 'Escape') setMode(null);
          }}
        >
          <label for={`edit-${item.id}`}>
            {mode === 'fix'
              ? `New rule for this ${kind} (a "prefer" rule makes it a preference)`
              : `The same wish as a ${other}`}
          </label>
          <div class="row">
            <input
              id={`edit-${item.id}`}
              ref={box}
              value={text}
              aria-describedby={problem === null ? undefined : `problem-${item.id}`}
              onInput={(e) => setText((e.currentTarget as HTMLInputElement).value)}
            />
            <button type="submit" disabled={props.busy || text.trim() === ''}>
              Save
            </button>
            <button type="button" class="link" onClick={() => setMode(null)}>
              Cancel
            </button>
          </div>
        </form>
      )}
      {problem !== null && (
        <p class="problem" id={`problem-${item.id}`} role="alert">
          {problem}
        </p>
      )}
    </>
  );
}

/**
 * A question back to the person, answered with a rule (the engine's `resolve` with `as_hard` or
 * `as_soft`, read by `parseRule` as "add a rule" reads it) or skipped (`resolve` with `drop`).
 */
export function QuestionItem(props: {
  question: DraftShown['clarifications'][number];
  catalog: AttributeCatalog;
  busy: boolean;
  edit: Edit;
}) {
  const { question } = props;
  const [text, setText] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const answer = async (event: Event) => {
    event.preventDefault();
    try {
      const parsed = parseRule(text, props.catalog);
      const as = parsed.kind === 'hard' ? { as_hard: parsed.raw } : { as_soft: parsed.raw };
      setProblem(
        await props.edit(
          [{ op: 'resolve', item_id: question.id, ...as }],
          `Your answer is now a ${parsed.kind === 'hard' ? 'limit' : 'preference'}.`,
        ),
      );
    } catch (error) {
      setProblem(error instanceof Error ? error.message : String(error));
    }
  };
  return (
    <li data-id={question.id}>
      <p class="question-text" id={`question-${question.id}`}>
        {question.question}
      </p>
      <form class="item-edit" onSubmit={answer}>
        <label for={`answer-${question.id}`}>Answer with a rule</label>
        <div class="row">
          <input
            id={`answer-${question.id}`}
            value={text}
            aria-describedby={
              problem === null
                ? `question-${question.id}`
                : `question-${question.id} problem-${question.id}`
            }
            onInput={(e) => setText((e.currentTarget as HTMLInputElement).value)}
          />
          <button type="submit" disabled={props.busy || text.trim() === ''}>
            Answer
          </button>
        </div>
      </form>
      <button
        type="button"
        class="link"
        disabled={props.busy}
        onClick={async () =>
          setProblem(
            await props.edit(
              [{ op: 'resolve', item_id: question.id, drop: true }],
              'Question skipped.',
            ),
          )
        }
      >
        Skip this question
      </button>
      {problem !== null && (
        <p class="problem" id={`problem-${question.id}`} role="alert">
          {problem}
        </p>
      )}
    </li>
  );
}
