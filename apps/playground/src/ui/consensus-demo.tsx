import { type DecisionSpec, optionLabel, readSpec } from '@parley/consensus';
import { useState } from 'preact/hooks';
import { type ProofCard, proofCard } from '../consensus/proof-card-html.js';
import {
  type BrowserCheck,
  checkInBrowser,
  type Run,
  runSpec,
} from '../consensus/receipt-check.js';
import { presentationOf, RECIPES } from '../consensus/recipes.js';
import { InterviewPanel } from './interview-panel.js';
import { OutcomeTable } from './outcome-table.js';
import { PrivateCheck } from './private-check.js';
import { ProofCardView } from './proof-card-view.js';
import { ReceiptPanel } from './receipt-panel.js';

type Source = { name: string; text: string; spec: DecisionSpec };

const FIRST = RECIPES.find((r) => r.key === 'recipe_committee') ?? RECIPES[0];

function attributes(spec: DecisionSpec): string[] {
  const keys = new Set<string>();
  for (const option of spec.options) {
    for (const key of Object.keys(option)) if (key !== 'id' && key !== 'label') keys.add(key);
  }
  return [...keys];
}

function cell(value: unknown): string {
  if (value === undefined) return '–';
  if (typeof value === 'object' && value !== null && 'value' in value) return String(value.value);
  return typeof value === 'string' ? value : JSON.stringify(value);
}

function Setup(props: { source: Source }) {
  const { spec, text } = props.source;
  const presentation = presentationOf(text);
  const attrs = attributes(spec);
  return (
    <section class="card setup" aria-labelledby="setup-title">
      <h3 id="setup-title">{spec.title}</h3>
      {presentation.situation !== undefined && <p>{presentation.situation}</p>}
      <h4>Parties</h4>
      <ul class="parties">
        {spec.parties.map((p) => (
          <li key={p.owner}>
            <strong>{p.owner}</strong>
            {presentation.parties?.[p.owner]?.blurb !== undefined && (
              <span class="muted"> — {presentation.parties[p.owner]?.blurb}</span>
            )}
          </li>
        ))}
      </ul>
      <p class="muted small">
        Each party’s red lines and preferences are a private sheet. In this demo the page holds them
        all, as one host would; across machines each owner runs a delegate (
        <code>parley consensus delegate</code>) and the coordinator sees masked verdicts only.
      </p>
      <h4>Options</h4>
      <div class="table-wrap">
        <table class="option-table">
          <thead>
            <tr>
              <th scope="col">Option</th>
              {attrs.map((a) => (
                <th key={a} scope="col">
                  {a}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {spec.options.map((option, i) => (
              <tr key={optionLabel(option, i)}>
                <th scope="row">{optionLabel(option, i)}</th>
                {attrs.map((a) => (
                  <td key={a}>{cell((option as Record<string, unknown>)[a])}</td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}

/** The consensus half: pick or upload a decision, run it, check the receipt, each party's check. */
export function ConsensusDemo() {
  const [source, setSource] = useState<Source | undefined>(
    FIRST === undefined ? undefined : { name: FIRST.file, text: FIRST.text, spec: FIRST.spec },
  );
  const [choice, setChoice] = useState(FIRST?.key ?? '');
  const [problem, setProblem] = useState<string | undefined>(undefined);
  const [run, setRun] = useState<Run | undefined>(undefined);
  const [check, setCheck] = useState<BrowserCheck | undefined>(undefined);
  const [card, setCard] = useState<ProofCard | undefined>(undefined);

  /** A new decision on the table: the last run's result goes. */
  const choose = (next: Source): void => {
    setSource(next);
    setRun(undefined);
    setCheck(undefined);
    setCard(undefined);
  };

  const upload = async (file: File | undefined): Promise<void> => {
    if (file === undefined) return;
    try {
      const text = await file.text();
      choose({ name: file.name, text, spec: readSpec(text) });
      setChoice('');
      setProblem(undefined);
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      setProblem(`${file.name} is not a decision spec: ${reason}`);
    }
  };

  const start = async (): Promise<void> => {
    if (source === undefined) return;
    try {
      const next = runSpec(source.spec);
      setRun(next);
      const checked = await checkInBrowser(next.receiptText);
      setCheck(checked);
      setCard(proofCard(next, checked, new Date()));
    } catch (error) {
      setProblem(error instanceof Error ? error.message : String(error));
    }
  };

  const result = run?.result;
  const decisionLabel =
    result === undefined || result.decision === null
      ? undefined
      : optionLabel(
          result.decision,
          result.transcript.entries.findIndex((e) => e.option === result.decision),
        );
  return (
    <div class="consensus">
      <section class="card chooser" aria-labelledby="chooser-title">
        <h2 id="chooser-title">A decision among rival parties</h2>
        <p class="muted">
          Each party has private red lines and preferences. An option that crosses any red line is
          blocked; among the rest, the one whose least happy party is happiest wins.
        </p>
        <div class="row">
          <div class="grow">
            <label for="recipe">Decision</label>
            <select
              id="recipe"
              value={choice}
              onChange={(e) => {
                const recipe = RECIPES.find((r) => r.key === e.currentTarget.value);
                if (recipe === undefined) return;
                setChoice(recipe.key);
                setProblem(undefined);
                choose({ name: recipe.file, text: recipe.text, spec: recipe.spec });
              }}
            >
              {choice === '' && <option value="">{source?.name ?? 'uploaded'}</option>}
              {RECIPES.map((r) => (
                <option key={r.key} value={r.key}>
                  {r.spec.title}
                </option>
              ))}
            </select>
          </div>
          <div>
            <label for="upload">Or upload a spec file</label>
            <input
              id="upload"
              type="file"
              accept=".json,application/json"
              onChange={(e) => void upload(e.currentTarget.files?.[0])}
            />
          </div>
        </div>
        {problem !== undefined && (
          <p class="problem" role="alert">
            {problem}
          </p>
        )}
      </section>
      {source !== undefined && <Setup source={source} />}
      {source !== undefined && (
        <div class="run-bar">
          <button type="button" class="primary big" onClick={() => void start()}>
            Run
          </button>
          <span class="muted">The engine runs here, in your browser; nothing is uploaded.</span>
        </div>
      )}
      {run !== undefined && result !== undefined && (
        <>
          <section class="card consensus-result" aria-labelledby="result-title" aria-live="polite">
            <h3 id="result-title">
              {result.status === 'agreed' ? (
                <>
                  Agreed: <span class="decision-name">{decisionLabel}</span>
                </>
              ) : (
                'Deadlock: no option is acceptable to every party'
              )}
            </h3>
            <p class="muted">
              {result.status === 'agreed'
                ? 'Feasible for every party, and the best choice for the least happy one.'
                : 'Nothing is forced on anyone: an honest deadlock, not a bad decision.'}
            </p>
            <OutcomeTable run={run} />
          </section>
          <ReceiptPanel run={run} check={check} />
          <PrivateCheck key={run.hash} run={run} spec={run.spec} />
          {card !== undefined && <ProofCardView card={card} />}
        </>
      )}
      {source !== undefined && <InterviewPanel key={source.name} spec={source.spec} />}
    </div>
  );
}
