import type { BrowserCheck, Run } from '../consensus/receipt-check.js';
import { download } from './download.js';

/** The receipt hash as the engine printed it, and as this browser recomputed it on its own. */
export function ReceiptPanel(props: { run: Run; check: BrowserCheck | undefined }) {
  const { run, check } = props;
  return (
    <section class="card receipt-panel" aria-labelledby="receipt-title">
      <h3 id="receipt-title">The receipt</h3>
      <dl class="hashes">
        <div>
          <dt>SHA-256 the engine printed</dt>
          <dd>
            <code data-hash="engine">{run.hash}</code>
          </dd>
        </div>
        <div>
          <dt>Recomputed in this browser (WebCrypto, over the Python-compatible canonical text)</dt>
          <dd>
            <code data-hash="browser">{check?.recomputed ?? '…'}</code>
          </dd>
        </div>
      </dl>
      {check !== undefined && (
        <p
          class={check.matches && check.recomputed === run.hash ? 'ok-note' : 'problem'}
          data-match={String(check.matches && check.recomputed === run.hash)}
        >
          {check.matches && check.recomputed === run.hash
            ? '✓ The hashes match: the record is exactly what the engine hashed.'
            : '✗ The hashes differ: the record is not what the engine hashed.'}
        </p>
      )}
      {check !== undefined && (
        <ul class="checks">
          {check.report.checks.map((c) => (
            <li key={c.name} class={`check-${c.status}`}>
              <strong>{c.name}</strong>: {c.detail}
            </li>
          ))}
        </ul>
      )}
      <details>
        <summary>The canonical text the hash covers</summary>
        {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling text must be reachable by keyboard (WCAG 2.1.1) */}
        <pre class="canonical" tabIndex={0}>
          {check?.canonicalText ?? ''}
        </pre>
      </details>
      <button
        type="button"
        onClick={() =>
          download(
            `receipt-${run.hash.slice(0, 12)}.json`,
            'application/json',
            `${run.receiptText}\n`,
          )
        }
      >
        Download the receipt (JSON, as parley decide --json prints it)
      </button>
    </section>
  );
}
