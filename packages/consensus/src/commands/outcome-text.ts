import { standingOf } from '../decision/max-min.js';
import type { ConsensusResult } from '../decision/run.js';
import { pyDumps } from '../py-json/dumps.js';
import type { PyValue } from '../py-json/value.js';
import { optionLabel } from './option-label.js';

const LABEL_WIDTH = 24;

/**
 * A decision for people to read: the decision (or the deadlock), then every option with its
 * standing or "blocked by a red line". It never says whose red line: the record says who found an
 * option unacceptable, but a readable summary need not point at anyone.
 */
export function outcomeLines(
  title: string,
  result: ConsensusResult<PyValue>,
  parties: number,
  label: (option: PyValue, index: number) => string = optionLabel,
): string[] {
  const entries = result.transcript.entries;
  const labels = entries.map((e, i) => label(e.option, i));
  const width = Math.min(LABEL_WIDTH, Math.max(...labels.map((l) => l.length)));
  const chosen =
    result.decision === null ? -1 : entries.findIndex((e) => e.option === result.decision);
  const lines = [title, ''];
  if (result.decision === null) {
    lines.push('Deadlock: no option is acceptable to every party. Nothing is forced on anyone.');
  } else {
    lines.push(`Agreed: ${labels[chosen]}`, `  ${pyDumps(result.decision)}`);
  }
  const blocked = entries.filter((e) => standingOf(e.verdicts) === null).length;
  lines.push(
    '',
    `${count(entries.length, 'option')}, ${count(parties, 'party', 'parties')}, ${blocked} blocked by a red line.`,
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
  return lines;
}

/** `1 party`, `4 parties`. */
function count(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}
