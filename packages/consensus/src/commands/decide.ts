import { pyDumps } from '../py-json/dumps.js';
import { decide } from '../spec/decide.js';
import { readSpec } from '../spec/read-spec.js';
import { outcomeLines } from './outcome-text.js';
import { type CommandOutput, printed, refused } from './output.js';

export interface DecideCommandOptions {
  /** Print `{status, decision, transcript, transcript_sha256}` as Python's json.dumps would. */
  readonly json?: boolean;
}

/**
 * `parley decide SPEC.json [--json]`. The readable form says which options were blocked by a red
 * line but never whose; the JSON form carries the full masked transcript, which is a receipt.
 */
export function decideCommand(specText: string, options: DecideCommandOptions = {}): CommandOutput {
  try {
    const spec = readSpec(specText);
    const result = decide(spec);
    const hash = result.transcript.hash();
    if (options.json === true) {
      const out = pyDumps({
        status: result.status,
        decision: result.decision,
        transcript: result.transcript.toDict(),
        transcript_sha256: hash,
      });
      return printed(`${out}\n`);
    }
    const lines = outcomeLines(spec.title, result, spec.parties.length);
    lines.push('', `receipt sha256: ${hash}`);
    return printed(`${lines.join('\n')}\n`);
  } catch (error) {
    return refused('decide', error);
  }
}
