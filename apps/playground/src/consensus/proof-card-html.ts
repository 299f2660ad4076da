import { optionLabel, pyDumps, standingOf } from '@parley/consensus';
import type { BrowserCheck, Run } from './receipt-check.js';

const escapeHtml = (text: string): string =>
  text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** The facts a proof card states. */
export type ProofCard = {
  title: string;
  status: 'agreed' | 'deadlock';
  decision: string | null;
  decisionJson: string | null;
  parties: string[];
  options: number;
  blocked: number;
  hash: string;
  madeAt: string;
  proves: string[];
  doesNotProve: string[];
};

export function proofCard(run: Run, check: BrowserCheck, now: Date): ProofCard {
  const { result, spec } = run;
  const entries = result.transcript.entries;
  const chosen = entries.findIndex((e) => e.option === result.decision);
  const blocked = entries.filter((e) => standingOf(e.verdicts) === null).length;
  return {
    title: spec.title,
    status: result.status,
    decision: result.decision === null ? null : optionLabel(result.decision, chosen),
    decisionJson: result.decision === null ? null : pyDumps(result.decision),
    parties: spec.parties.map((p) => p.owner),
    options: entries.length,
    blocked,
    hash: check.recomputed,
    madeAt: now.toISOString().replace(/\.\d{3}Z$/, 'Z'),
    proves: [
      'Every red line was checked in code, against every option, before any score was weighed: an option that crosses one is blocked, never traded away.',
      result.status === 'agreed'
        ? 'The decision is the max-min choice among the options acceptable to every party (the lowest score is as high as it can be; the total breaks ties), recomputed from the recorded verdicts.'
        : 'No option was acceptable to every party, so nothing was decided: nothing is forced on anyone.',
      'The record of masked verdicts hashes to the SHA-256 above, as parley-consensus 0.2.1 hashes it: any later edit to the record changes the hash.',
      'Each party can replay their own sheet against this decision, on their own machine, without showing it to anyone.',
    ],
    doesNotProve: [
      ...check.report.notProven,
      'who made this card: it is unsigned, so the hash on it proves something only to whoever kept it apart from the record',
    ],
  };
}

/** A self-contained HTML page of the card: no script, no outside resource, prints on one page. */
export function proofCardHtml(card: ProofCard): string {
  const li = (items: string[]) => items.map((i) => `<li>${escapeHtml(i)}</li>`).join('');
  const decision =
    card.status === 'agreed'
      ? `<p class="decision">Agreed: <strong>${escapeHtml(card.decision ?? '')}</strong></p><pre>${escapeHtml(card.decisionJson ?? '')}</pre>`
      : '<p class="decision">Deadlock: no option is acceptable to every party. Nothing is forced on anyone.</p>';
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Parley proof card: ${escapeHtml(card.title)}</title>
<style>
body{font:15px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,"Helvetica Neue",Arial,sans-serif;color:#1b2430;background:#f3f5f8;margin:0;padding:32px}
.card{max-width:720px;margin:0 auto;background:#fff;border:1px solid #d9dee7;border-radius:14px;padding:28px 32px;box-shadow:0 1px 3px rgba(20,30,50,.08)}
.brand{font-size:12px;letter-spacing:.12em;text-transform:uppercase;color:#5b6675;margin:0}
h1{font-size:22px;margin:4px 0 16px}
.decision{font-size:18px;margin:0 0 6px}
pre,code{font:13px/1.45 ui-monospace,SFMono-Regular,Menlo,Consolas,monospace}
pre{background:#f6f7f9;border-radius:8px;padding:10px 12px;white-space:pre-wrap;word-break:break-all;margin:0 0 14px}
dl{display:grid;grid-template-columns:max-content 1fr;gap:4px 16px;margin:0 0 16px}dt{color:#5b6675}dd{margin:0}
.hash{word-break:break-all}
h2{font-size:14px;margin:18px 0 6px;text-transform:uppercase;letter-spacing:.06em;color:#3a4656}
ul{margin:0;padding-left:20px}li{margin:3px 0}
footer{margin-top:18px;color:#5b6675;font-size:12px}
@media print{body{background:#fff;padding:0}.card{box-shadow:none;border:1px solid #999}}
</style></head>
<body><article class="card">
<p class="brand">Parley consensus · proof card</p>
<h1>${escapeHtml(card.title)}</h1>
${decision}
<dl>
<dt>Parties</dt><dd>${escapeHtml(card.parties.join(', '))}</dd>
<dt>Options</dt><dd>${card.options}, of which ${card.blocked} blocked by a red line (whose is not said)</dd>
<dt>Receipt SHA-256</dt><dd class="hash"><code>${escapeHtml(card.hash)}</code></dd>
<dt>Made</dt><dd>${escapeHtml(card.madeAt)}</dd>
</dl>
<h2>What it proves</h2><ul>${li(card.proves)}</ul>
<h2>What it does not prove</h2><ul>${li(card.doesNotProve)}</ul>
<footer>Check it: <code>parley verify-receipt RECEIPT.json</code> recomputes the hash and the max-min decision; <code>parley check-party MY-SHEET.json RECEIPT.json</code> replays your own red lines.</footer>
</article></body></html>
`;
}
