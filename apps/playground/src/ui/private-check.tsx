import type { DecisionSpec } from '@parley/consensus';
import { useState } from 'preact/hooks';
import { checkPrivately, type PrivateVerdict, sheetText } from '../consensus/private-check.js';
import type { Run } from '../consensus/receipt-check.js';

function Verdict(props: { verdict: PrivateVerdict }) {
  const v = props.verdict;
  if (v.deadlock) {
    return (
      <p class="ok-note" data-holds="true">
        {v.owner}: no decision was made, so none of your red lines is crossed.
      </p>
    );
  }
  return (
    <div data-holds={String(v.holds)}>
      {v.holds ? (
        <p class="ok-note">✓ {v.owner}: every one of your red lines holds on this decision.</p>
      ) : (
        <p class="problem">
          ✗ {v.owner}: this decision crosses your red line{v.crossed.length === 1 ? '' : 's'}{' '}
          {v.crossed.map((c) => `“${c}”`).join(', ')}.
        </p>
      )}
      {v.score !== null && (
        <p class="muted">
          Your score for it: {v.score.toFixed(2)}; it is your #{v.rank} of the {v.acceptable}{' '}
          options your red lines allow (of {v.options}).
        </p>
      )}
    </div>
  );
}

/**
 * Each party's private check: their sheet (picked from the recipe, pasted, or edited) replayed
 * against the decision in this browser. The sheet is never sent: the check is local code.
 */
export function PrivateCheck(props: { run: Run; spec: DecisionSpec }) {
  const [owner, setOwner] = useState(props.spec.parties[0]?.owner ?? '');
  const party = props.spec.parties.find((p) => p.owner === owner);
  const [text, setText] = useState(party === undefined ? '' : sheetText(party));
  const [verdict, setVerdict] = useState<PrivateVerdict | undefined>(undefined);
  const [problem, setProblem] = useState<string | undefined>(undefined);
  return (
    <section class="card private-check" aria-labelledby="private-title">
      <h3 id="private-title">Each party’s private check</h3>
      <p class="muted">
        Pick a party, or paste your own sheet. It is replayed against the decision here, in this
        browser; it is never sent anywhere.
      </p>
      <label for="private-owner">Party</label>
      <select
        id="private-owner"
        value={owner}
        onChange={(e) => {
          const next = e.currentTarget.value;
          setOwner(next);
          const chosen = props.spec.parties.find((p) => p.owner === next);
          if (chosen !== undefined) setText(sheetText(chosen));
          setVerdict(undefined);
          setProblem(undefined);
        }}
      >
        {props.spec.parties.map((p) => (
          <option key={p.owner} value={p.owner}>
            {p.owner}
          </option>
        ))}
      </select>
      <label for="private-sheet">Your sheet (JSON: owner, hard red lines, utility)</label>
      <textarea
        id="private-sheet"
        rows={9}
        spellcheck={false}
        value={text}
        onInput={(e) => {
          setText(e.currentTarget.value);
          setVerdict(undefined);
        }}
      />
      <button
        type="button"
        class="primary"
        onClick={async () => {
          try {
            setProblem(undefined);
            setVerdict(await checkPrivately(text, props.run));
          } catch (error) {
            setVerdict(undefined);
            setProblem(error instanceof Error ? error.message : String(error));
          }
        }}
      >
        Check my red lines, locally
      </button>
      <div aria-live="polite" class="private-result">
        {verdict !== undefined && <Verdict verdict={verdict} />}
        {problem !== undefined && (
          <p class="problem" role="alert">
            {problem}
          </p>
        )}
      </div>
    </section>
  );
}
