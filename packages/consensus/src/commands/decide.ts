import { standingOf } from '../consensus/max-min.js';
import { pyDumps } from '../py-json/dumps.js';
import { decide } from '../spec/decide.js';
import { readSpec } from '../spec/read-spec.js';
import { optionLabel } from './option-label.js';
import { type CommandOutput, printed, refused } from './output.js';

export interface DecideCommandOptions {
  /** Print `{status, decision, transcript, transcript_sha256}` as Python's json.dumps would. */
  readonly json?: boolean;
}

const LABEL_WIDTH = 24;

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
    const entries = result.transcript.entries;
    const labels = entries.map((e, i) => optionLabel(e.option, i));
    const width = Math.min(LABEL_WIDTH, Math.max(...labels.map((l) => l.length)));
    const chosen = result.decision === null ? -1 : spec.options.indexOf(result.decision);
    const lines = [spec.title, ''];
    if (result.decision === null) {
      lines.push('Deadlock: no option is acceptable to every party. Nothing is forced on anyone.');
    } else {
      lines.push(`Agreed: ${labels[chosen]}`, `  ${pyDumps(result.decision)}`);
    }
    const blocked = entries.filter((e) => standingOf(e.verdicts) === null).length;
    lines.push(
      '',
      `${entries.length} options, ${spec.parties.length} parties, ${blocked} blocked by a red line.`,
      'Max-min over the options acceptable to everyone (highest lowest score wins, total breaks ties):',
    );
    entries.forEach((e, i) => {
      const s = standingOf(e.verdicts);
      const label = (labels[i] ?? '').padEnd(width);
      const row =
        s === null
          ? 'blocked by a red line'
          : `acceptable to all   lowest ${s.floor.toFixed(2)}   total ${s.total.toFixed(2)}`;
      lines.push(`  ${label}  ${row}${i === chosen ? '   <- decision' : ''}`);
    });
    lines.push('', `receipt sha256: ${hash}`);
    return printed(`${lines.join('\n')}\n`);
  } catch (error) {
    return refused('decide', error);
  }
}
