import {
  type Change,
  type ConfirmedSheet,
  confirmSheet,
  type DecisionSpec,
  draftSheet,
  ElicitError,
  PROMPTS,
  type PromptId,
  partyFileDict,
  pyDumps,
  recordAnswer,
  reviseSheet,
  type SheetDraft,
  startInterview,
} from '@parley/consensus';
import { useEffect, useState } from 'preact/hooks';
import {
  remoteElicitor,
  type ServerElicitor,
  serverElicitor,
} from '../consensus/remote-elicitor.js';
import { download } from './download.js';
import { DraftReview } from './draft-review.js';

/** A file name for a party's sheet: its name, with anything unusual made a dash. */
const fileName = (name: string): string =>
  `${name.replace(/[^\w.-]+/g, '-') || 'party'}.party.json`;

/**
 * The interview: the six prompts in the person's own words, a draft from the page server's
 * model (or its scripted elicitor; the panel says which), checked here by the engine against
 * this decision's options, revised and confirmed by ids and version, then downloaded as a
 * party file. Only the answers and the options go to the server; the sheet stays here.
 */
export function InterviewPanel(props: { spec: DecisionSpec }) {
  const { spec } = props;
  const [server, setServer] = useState<ServerElicitor | undefined>(undefined);
  const [name, setName] = useState('');
  const [answers, setAnswers] = useState<Partial<Record<PromptId, string>>>({});
  const [draft, setDraft] = useState<SheetDraft | undefined>(undefined);
  const [sheet, setSheet] = useState<ConfirmedSheet | undefined>(undefined);
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | undefined>(undefined);
  useEffect(() => {
    serverElicitor().then(setServer, (error: Error) => setProblem(error.message));
  }, []);

  const makeDraft = async (event: Event): Promise<void> => {
    event.preventDefault();
    if (server === undefined) return;
    setProblem(undefined);
    setSheet(undefined);
    setBusy(true);
    try {
      let interview = startInterview({ caseId: spec.title, participant: name.trim() });
      for (const [id, text] of Object.entries(answers))
        interview = recordAnswer(interview, id, text);
      setDraft(
        await draftSheet(interview, remoteElicitor(server.label, spec.options), {
          options: spec.options,
        }),
      );
    } catch (error) {
      setProblem((error as Error).message);
    } finally {
      setBusy(false);
    }
  };
  const revise = (change: Change): string | null => {
    if (draft === undefined) return null;
    try {
      setDraft(
        reviseSheet(
          draft,
          { participant: draft.participant, token: draft.token, ops: [change] },
          { options: spec.options },
        ),
      );
      setSheet(undefined);
      return null;
    } catch (error) {
      if (error instanceof ElicitError) return error.message;
      throw error;
    }
  };
  const confirm = (ids: string[]): string | null => {
    if (draft === undefined) return null;
    try {
      setSheet(
        confirmSheet(draft, {
          participant: draft.participant,
          token: draft.token,
          hard: ids,
          version: draft.version,
        }),
      );
      return null;
    } catch (error) {
      if (error instanceof ElicitError) return error.message;
      throw error;
    }
  };
  return (
    <section class="card interview" aria-labelledby="interview-title">
      <h3 id="interview-title">Interview: your position, in your own words</h3>
      <p class="muted">
        Answer in plain words. A model drafts your red lines and preferences for this decision’s
        options; you read each one beside the words it came from, fix or drop it, and nothing binds
        until you confirm every red line of the exact version you read.
      </p>
      <p class="elicitor" data-model={server === undefined ? '' : String(server.model)}>
        Drafting with: <strong>{server?.label ?? '…'}</strong>
        {server !== undefined && !server.model && (
          <span class="muted">
            {' '}
            (no model is configured on the server: start it with --provider, or OPENAI_API_KEY /
            ANTHROPIC_API_KEY)
          </span>
        )}
      </p>
      <form class="prompts" onSubmit={(e) => void makeDraft(e)}>
        <label for="interview-name">Your name in this decision</label>
        <input
          id="interview-name"
          value={name}
          required
          onInput={(e) => setName(e.currentTarget.value)}
        />
        {PROMPTS.map((p, i) => (
          <div key={p.id} class="prompt">
            <label for={`prompt-${p.id}`}>
              {i + 1}. {p.question}
            </label>
            <textarea
              id={`prompt-${p.id}`}
              rows={2}
              value={answers[p.id] ?? ''}
              onInput={(e) => setAnswers({ ...answers, [p.id]: e.currentTarget.value })}
            />
          </div>
        ))}
        <button type="submit" class="primary draft-button" disabled={busy || server === undefined}>
          {busy ? 'Drafting…' : 'Draft my sheet'}
        </button>
      </form>
      {problem !== undefined && (
        <p class="problem" role="alert">
          {problem}
        </p>
      )}
      {draft !== undefined && (
        <DraftReview draft={draft} options={spec.options} revise={revise} confirm={confirm} />
      )}
      {sheet !== undefined && (
        <div class="confirmed" aria-live="polite">
          <p class="ok-note">
            ✓ Confirmed: {sheet.hard.length} red line{sheet.hard.length === 1 ? '' : 's'} and{' '}
            {sheet.utility.length} preference{sheet.utility.length === 1 ? '' : 's'}, version{' '}
            <code>{sheet.version.slice(0, 12)}</code>.
          </p>
          <button
            type="button"
            class="primary"
            onClick={() =>
              download(
                fileName(sheet.participant),
                'application/json',
                `${pyDumps(partyFileDict(sheet), { indent: 2 })}\n`,
              )
            }
          >
            Download {fileName(sheet.participant)}
          </button>
          <p class="muted small">
            Serve it to a decision:{' '}
            <code>parley consensus delegate --party-file {fileName(sheet.participant)}</code>
          </p>
        </div>
      )}
    </section>
  );
}
