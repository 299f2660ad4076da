import { useState } from 'preact/hooks';
import { type CaseView, downloadCase, optionWords } from './cases-client.js';

/** The receipt: the result in words, downloads, and how anyone can check it. */
export function ReceiptBox({ view, token }: { view: CaseView; token: string }) {
  const [problem, setProblem] = useState<string | null>(null);
  if (view.receipt === null) return null;
  const receipt = JSON.parse(view.receipt) as {
    status: string;
    transcript_sha256: string;
    unanimous_acceptance?: boolean;
    acceptances?: { owner: string; accepted: boolean }[];
  };
  const slug = view.title.replace(/[^A-Za-z0-9]+/g, '-').toLowerCase() || 'case';
  const get = (route: string, name: string) =>
    downloadCase(route, token, name).catch((e: unknown) =>
      setProblem(e instanceof Error ? e.message : String(e)),
    );
  return (
    <section class="card receipt" aria-labelledby="receipt-title" data-status={view.state}>
      <h2 id="receipt-title">Receipt</h2>
      <p class="status-words">
        <strong>
          {view.state === 'agreed'
            ? 'AGREED'
            : view.state === 'deadlocked'
              ? 'NO AGREEMENT (deadlock)'
              : 'NOT AGREED'}
        </strong>
      </p>
      {view.proposal?.decision != null && <p>Proposal: {optionWords(view.proposal.decision)}</p>}
      {(receipt.acceptances ?? []).length > 0 && (
        <ul>
          {(receipt.acceptances ?? []).map((a) => (
            <li key={a.owner}>
              {a.owner}: {a.accepted ? 'accepted' : 'did not accept'} (signed)
            </li>
          ))}
        </ul>
      )}
      <p class="hash">
        Transcript fingerprint (SHA-256): <code>{receipt.transcript_sha256}</code>
      </p>
      <div class="actions">
        <button
          type="button"
          class="primary"
          onClick={() => get('receipt', `${slug}-receipt.json`)}
        >
          Download the transcript (JSON)
        </button>
        <button type="button" onClick={() => get('receipt.pdf', `${slug}-receipt.pdf`)}>
          Download as PDF
        </button>
      </div>
      {problem !== null && (
        <p role="alert" class="problem">
          {problem}
        </p>
      )}
      <details>
        <summary>How to check this receipt yourself</summary>
        <p>
          With Node.js installed, run <code>npx parley verify-receipt {slug}-receipt.json</code>. It
          recomputes the fingerprint above, checks every signature and replays the choice. It reads
          no one's private rules. A verified receipt means the record is intact; it does not mean
          the agreement is legally valid.
        </p>
      </details>
    </section>
  );
}
