import type { PyValue } from '../py-json/value.js';
import type { PreferenceSheet } from '../sheet/preference-sheet.js';
import { maskVerdict, type Verdict } from './verdict.js';

/** What `runConsensus` needs from a delegate. */
export interface AgentLike<O = PyValue> {
  readonly owner: string;
  consider(option: O): Verdict;
}

/** A delegate that may answer later: another process, or one that signs its verdicts. */
export interface AsyncAgentLike<O = PyValue> {
  readonly owner: string;
  consider(option: O): Verdict | Promise<Verdict>;
}

/** A local delegate: it holds one owner's sheet and hands out only masked verdicts. */
export class Agent<O = PyValue> implements AgentLike<O> {
  readonly owner: string;
  readonly #sheet: PreferenceSheet<O>;

  constructor(owner: string, sheet: PreferenceSheet<O>) {
    this.owner = owner;
    this.#sheet = sheet;
  }

  consider(option: O): Verdict {
    return maskVerdict(this.owner, this.#sheet.evaluate(option));
  }
}
