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

/** `runConsensus` for agents that answer asynchronously (signing agents, remote delegates). */
export async function runConsensusAsync<O>(
  agents: readonly AsyncAgentLike<O>[],
  options: readonly O[],
  rule: Rule = 'egalitarian',
): Promise<ConsensusResult<O>> {
  checkRoster(agents, rule);
  checkOptions(options);
  const entries: TranscriptEntry[] = [];
  for (const option of options) {
    const verdicts: Verdict[] = [];
    for (const a of agents) verdicts.push(checkVerdict(await a.consider(option), a.owner));
    entries.push(entryOf(option, verdicts));
  }
  return finalize(entries, options);
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
