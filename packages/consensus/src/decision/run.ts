import { ConsensusError } from '../errors.js';
import { type PyValue, unhashable } from '../py-json/value.js';
import { type Status, Transcript, type TranscriptEntry } from '../transcript/transcript.js';
import type { AgentLike, AsyncAgentLike } from './agent.js';
import { pickMaxMin, standingOf } from './max-min.js';
import { checkVerdict, type Verdict } from './verdict.js';

/** The selection rules; the Python package knows only the egalitarian one. */
export const RULES = ['egalitarian'] as const;
export type Rule = (typeof RULES)[number];

/** The outcome of a parley: a deadlock (null decision) is an answer, not an error. */
export interface ConsensusResult<O = PyValue> {
  readonly status: Status;
  readonly decision: O | null;
  readonly transcript: Transcript;
}

/**
 * Asks every agent about every option, in order, and picks by egalitarian max-min among the
 * options acceptable to all (first listed wins an exact tie). Nothing feasible: a deadlock.
 */
export function runConsensus<O>(
  agents: readonly AgentLike<O>[],
  options: readonly O[],
  rule: Rule = 'egalitarian',
): ConsensusResult<O> {
  checkRoster(agents, rule);
  checkOptions(options);
  const entries = options.map((option) =>
    entryOf(
      option,
      agents.map((a) => checkVerdict(a.consider(option), a.owner)),
    ),
  );
  return finalize(entries, options);
}

export interface AsyncRunOptions {
  /**
   * How many `consider` calls may be pending at once (default 1: one after another). Whatever
   * the order answers arrive in, the record lists them in option order, then agent order, so the
   * transcript and its hash do not depend on it.
   */
  readonly concurrency?: number;
}

/**
 * `runConsensus` for agents that answer asynchronously (signing agents, remote delegates). The
 * first agent that throws stops the asking: no new call starts, the pending ones settle, and
 * that error is thrown.
 */
export async function runConsensusAsync<O>(
  agents: readonly AsyncAgentLike<O>[],
  options: readonly O[],
  rule: Rule = 'egalitarian',
  run: AsyncRunOptions = {},
): Promise<ConsensusResult<O>> {
  checkRoster(agents, rule);
  checkOptions(options);
  const concurrency = run.concurrency ?? 1;
  if (!Number.isInteger(concurrency) || concurrency < 1) {
    throw new ConsensusError('bad_value', 'concurrency must be a positive integer');
  }
  const verdicts: Verdict[][] = options.map(() => []);
  const total = options.length * agents.length;
  let next = 0;
  let failure: { readonly error: unknown } | null = null;
  const ask = async (): Promise<void> => {
    while (failure === null && next < total) {
      const k = next++;
      const i = Math.floor(k / agents.length);
      const j = k % agents.length;
      const agent = agents[j] as AsyncAgentLike<O>;
      try {
        const verdict = checkVerdict(await agent.consider(options[i] as O), agent.owner);
        (verdicts[i] as Verdict[])[j] = verdict;
      } catch (error) {
        failure ??= { error };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, total) }, ask));
  if (failure !== null) throw (failure as { readonly error: unknown }).error;
  return finalize(
    options.map((option, i) => entryOf(option, verdicts[i] as Verdict[])),
    options,
  );
}

function checkRoster(agents: readonly { readonly owner: string }[], rule: string): void {
  if (!(RULES as readonly string[]).includes(rule)) {
    throw new ConsensusError('bad_value', `unknown rule: ${JSON.stringify(rule)}`);
  }
  const owners = new Set(agents.map((a) => a.owner));
  if (owners.size !== agents.length) {
    throw new ConsensusError('duplicate_owner', 'owner names must be distinct');
  }
}

/**
 * Options are JSON values (see PyValue); the type parameter stays open so an `interface` option
 * type works. An option the record could not hash is refused before any agent sees it.
 */
function checkOptions(options: readonly unknown[]): void {
  for (const [i, option] of options.entries()) {
    const problem = unhashable(option);
    if (problem !== null) {
      throw new ConsensusError('bad_value', `option ${i} cannot be recorded: ${problem}`);
    }
  }
}

function entryOf(option: unknown, verdicts: readonly Verdict[]): TranscriptEntry {
  return { option: option as PyValue, verdicts };
}

function finalize<O>(
  entries: readonly TranscriptEntry[],
  options: readonly O[],
): ConsensusResult<O> {
  const best = pickMaxMin(entries.map((e) => standingOf(e.verdicts)));
  const decision = best < 0 ? null : (options[best] as O);
  const status: Status = best < 0 ? 'deadlock' : 'agreed';
  const result = { status, decision: decision as PyValue };
  return { status, decision, transcript: new Transcript(entries, result) };
}
