import { pyDumps, type RatificationView } from '@parley/consensus';
import { escapeServiceText } from '@parley/protocol';

/**
 * What one owner sees at their own terminal before answering: the decision, the record, the
 * receipt's checks, and what the decision means against their own sheet (which only they see).
 */
export function ratificationText(view: RatificationView): string {
  const lines = [
    '',
    `${view.owner}, this is the decision${view.title === null ? '' : ` on "${view.title}"`}, for you to accept or reject.`,
    '',
    `  ${pyDumps(view.decision)}`,
    `  record sha256 ${view.transcriptHash}`,
    '',
    'The receipt, checked here:',
    ...view.report.checks.map(
      (c) => `  ${c.status.toUpperCase().padEnd(7)}  ${c.name}: ${c.detail}`,
    ),
    '',
    'Against your own sheet, replayed here and shown to no one else:',
  ];
  if (view.holds) {
    lines.push(
      '  Every one of your red lines holds on it.',
      `  You score it ${(view.score ?? 0).toFixed(2)}, your ${ordinal(view.rank ?? 0)} choice of the ${view.acceptable} options your red lines allow (${view.options} on the table).`,
    );
  } else {
    lines.push(
      '  It CROSSES your red lines:',
      ...view.crossed.map((name) => `    - ${name}`),
      '  You can only reject it.',
    );
  }
  lines.push('');
  return lines.map((line) => escapeServiceText(line)).join('\n');
}

/** 1st, 2nd, 3rd, 4th, ... 11th, 12th, 13th, 21st. */
function ordinal(n: number): string {
  const tens = n % 100;
  const suffix =
    tens >= 11 && tens <= 13
      ? 'th'
      : (({ 1: 'st', 2: 'nd', 3: 'rd' } as Record<number, string>)[n % 10] ?? 'th');
  return `${n}${suffix}`;
}
