import type { ProofCard } from '../consensus/proof-card-html.js';
import { proofCardHtml } from '../consensus/proof-card-html.js';
import { download } from './download.js';

/** The proof card of a decision: shown, printable, downloadable as one HTML file. */
export function ProofCardView(props: { card: ProofCard }) {
  const { card } = props;
  return (
    <section class="card proof-section" aria-labelledby="proof-title">
      <h3 id="proof-title">Proof card</h3>
      <article class="proof-card" aria-label={`Proof card: ${card.title}`}>
        <p class="brand">Parley consensus · proof card</p>
        <h4>{card.title}</h4>
        {card.status === 'agreed' ? (
          <p class="decision">
            Agreed: <strong>{card.decision}</strong>
          </p>
        ) : (
          <p class="decision">Deadlock: nothing is forced on anyone.</p>
        )}
        <dl class="facts">
          <div>
            <dt>Parties</dt>
            <dd>{card.parties.join(', ')}</dd>
          </div>
          <div>
            <dt>Options</dt>
            <dd>
              {card.options}, {card.blocked} blocked by a red line
            </dd>
          </div>
          <div>
            <dt>Receipt SHA-256</dt>
            <dd>
              <code class="hash-text">{card.hash}</code>
            </dd>
          </div>
        </dl>
        <h5>What it proves</h5>
        <ul>
          {card.proves.map((p) => (
            <li key={p}>{p}</li>
          ))}
        </ul>
        <h5>What it does not prove</h5>
        <ul>
          {card.doesNotProve.map((p) => (
            <li key={p}>{p}</li>
          ))}
        </ul>
      </article>
      <div class="actions">
        <button
          type="button"
          class="primary"
          onClick={() =>
            download(`proof-card-${card.hash.slice(0, 12)}.html`, 'text/html', proofCardHtml(card))
          }
        >
          Download the proof card (HTML)
        </button>
        <button type="button" onClick={() => window.print()}>
          Print it
        </button>
      </div>
    </section>
  );
}
