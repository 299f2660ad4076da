import {
  estimateLens,
  type FinalReply,
  type More,
  type Request,
  type UndoLine,
} from '@parley/protocol';
import { useState } from 'preact/hooks';
import type { Exchange } from '../protocol/agent-session.js';
import { SERVICES } from '../protocol/services.js';
import { LensJson } from './lens-json.js';
import { MoreList, type ReplyActions, ReplyView } from './reply-view.js';

/** What a request was about, in a few words. */
export function requestLine(request: Request): string {
  switch (request.verb) {
    case 'HELLO':
      return 'HELLO';
    case 'ASK':
    case 'INTENT': {
      const params = request.params === undefined ? '' : JSON.stringify(request.params);
      const auto = request.verb === 'INTENT' && request.auto === true ? ' auto' : '';
      return `${request.verb}${auto} ${request.capability} ${params}`;
    }
    case 'COMMIT':
      return `COMMIT ${request.proposal}`;
    case 'UNDO':
      return `UNDO ${request.receipt}`;
    case 'EXPAND':
      return `EXPAND ${request.handle}`;
  }
}

function moreOf(reply: FinalReply): More[] {
  return 'more' in reply && reply.more !== undefined ? reply.more : [];
}

/** Verbs that change nothing, so they may be asked again with another budget. */
const REASKABLE = new Set(['HELLO', 'ASK', 'INTENT', 'EXPAND']);

function BudgetControl(props: { reply: FinalReply; reask(budget: number): void; id: string }) {
  const now = estimateLens(props.reply);
  const [budget, setBudget] = useState(String(Math.max(10, Math.floor(now / 2))));
  const value = Number(budget);
  const valid = Number.isSafeInteger(value) && value > 0;
  return (
    <form
      class="budget"
      onSubmit={(event) => {
        event.preventDefault();
        if (valid) props.reask(value);
      }}
    >
      <label for={`budget-${props.id}`}>Re-ask with a budget of</label>
      <input
        id={`budget-${props.id}`}
        type="number"
        min="1"
        step="1"
        inputMode="numeric"
        value={budget}
        onInput={(event) => setBudget(event.currentTarget.value)}
        aria-describedby={`budget-help-${props.id}`}
      />
      <span id={`budget-help-${props.id}`} class="muted small">
        tokens (this reply: {now} by §8)
      </span>
      <button type="submit" disabled={!valid}>
        Re-ask
      </button>
    </form>
  );
}

/** One request and its reply: the reply for a person, then its Lens beside its JSON. */
export function ExchangeCard(props: {
  exchange: Exchange;
  actions: ReplyActions;
  reask(budget: number): void;
  undone?: UndoLine[] | undefined;
}) {
  const { exchange } = props;
  const { request, reply } = exchange;
  const more = moreOf(reply);
  const headingId = `exchange-${exchange.n}`;
  return (
    <article class={`exchange kind-${reply.kind.toLowerCase()}`} aria-labelledby={headingId}>
      <header class="exchange-head">
        <h3 id={headingId}>
          <span class="n">#{exchange.n}</span>
          <span class="service">{SERVICES[exchange.service].name}</span>
          <code class="request-line">{requestLine(request)}</code>
          {request.budget !== undefined && <span class="tag">budget {request.budget}</span>}
        </h3>
        <span class={`tag reply-kind reply-${reply.kind.toLowerCase()}`}>{reply.kind}</span>
      </header>
      <div class="exchange-body">
        <ReplyView reply={reply} actions={props.actions} undone={props.undone} />
        {more.length > 0 && <MoreList more={more} expand={props.actions.expand} />}
      </div>
      <LensJson reply={reply} />
      <footer class="exchange-foot">
        {REASKABLE.has(request.verb) && reply.kind !== 'ERROR' && (
          <BudgetControl reply={reply} reask={props.reask} id={String(exchange.n)} />
        )}
        <details class="frame">
          <summary>Request frame as sent (grants and proof included)</summary>
          <pre>{JSON.stringify(request, null, 2)}</pre>
        </details>
      </footer>
    </article>
  );
}
