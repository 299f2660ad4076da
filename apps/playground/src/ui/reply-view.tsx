import {
  type ClarifyOption,
  EFFECT_SYMBOLS,
  type Effect,
  type FinalReply,
  type Fix,
  type More,
  type Proposal,
  type Receipt,
  renderDuration,
  renderEffect,
  renderMoney,
  renderTime,
  renderValue,
  type UndoLine,
} from '@parley/protocol';

/** What a person can do from a reply. */
export type ReplyActions = {
  pick(option: ClarifyOption): void;
  commit(proposal: Proposal): void;
  undo(receipt: Receipt): void;
  expand(more: More): void;
  fix(fix: Fix): void;
};

const OP_NAMES: Record<string, string> = {
  create: 'create',
  update: 'update',
  delete: 'delete',
  send: 'send',
  charge: 'charge',
  other: 'other',
};

function Effects(props: { effects: readonly Effect[] }) {
  if (props.effects.length === 0) return <p class="muted">No effects declared.</p>;
  return (
    <ul class="effects">
      {props.effects.map((effect, i) => (
        <li key={i} class={`effect effect-${effect.op}`}>
          <span class="effect-op" title={OP_NAMES[effect.op] ?? effect.op} aria-hidden="true">
            {Object.hasOwn(EFFECT_SYMBOLS, effect.op)
              ? EFFECT_SYMBOLS[effect.op as keyof typeof EFFECT_SYMBOLS]
              : '*'}
          </span>
          <span class="visually-hidden">{OP_NAMES[effect.op] ?? effect.op}: </span>
          <code>{renderEffect(effect).slice(2)}</code>
        </li>
      ))}
    </ul>
  );
}

function Facts(props: { items: [string, string, (string | undefined)?][] }) {
  return (
    <dl class="facts">
      {props.items.map(([label, value, tone]) => (
        <div key={label} class={tone === undefined ? '' : `tone-${tone}`}>
          <dt>{label}</dt>
          <dd>{value}</dd>
        </div>
      ))}
    </dl>
  );
}

function inFuture(seconds: number): string {
  const left = seconds - Date.now() / 1000;
  if (left <= 0) return 'expired';
  return left < 120 ? `in ${Math.round(left)} s` : `in ${Math.round(left / 60)} min`;
}

function ProposalCard(props: { proposal: Proposal; actions: ReplyActions; label: string }) {
  const p = props.proposal;
  const speed =
    p.data !== undefined && typeof p.data === 'object' && p.data !== null && 'arrives' in p.data
      ? String((p.data as { arrives: unknown }).arrives)
      : undefined;
  return (
    <article class="proposal" aria-label={`${props.label}: ${p.summary}`}>
      <header>
        <h4>{p.summary}</h4>
        <code class="id">{p.id}</code>
      </header>
      <Effects effects={p.effects} />
      <Facts
        items={[
          ['Cost', p.cost === null ? 'free' : renderMoney(p.cost)],
          ['Risk', p.risk, p.risk === 'low' ? 'ok' : p.risk === 'medium' ? 'warn' : 'bad'],
          [
            'Undo',
            p.undo === null ? 'cannot be undone' : `within ${renderDuration(p.undo.window)}`,
            p.undo === null ? 'bad' : undefined,
          ],
          ['Expires', `${renderTime(p.expires)} (${inFuture(p.expires)})`],
          ...(speed === undefined ? [] : ([['Arrives', speed]] as [string, string][])),
        ]}
      />
      {p.data !== undefined && (
        <details class="data">
          <summary>Data (not covered by the hash)</summary>
          <pre>{renderValue(p.data)}</pre>
        </details>
      )}
      <div class="actions">
        <button type="button" class="primary" onClick={() => props.actions.commit(p)}>
          Commit {p.id}
        </button>
        <span class="hash" title="§5.1: the hash the COMMIT is bound to">
          hash <code>{p.hash.slice(0, 12)}…</code>
        </span>
      </div>
    </article>
  );
}

function ReceiptView(props: {
  receipt: Receipt;
  actions: ReplyActions;
  undone?: UndoLine[] | undefined;
  replay?: boolean | undefined;
  /**
   * docs/extensions.md §E1: the client refuses a receipt whose signature fails, so this is checked.
   */
  signedBy?: string | undefined;
}) {
  const r = props.receipt;
  const signed = props.signedBy !== undefined && (
    <p class="signed">
      <span aria-hidden="true">🔏 </span>signed by <code>{props.signedBy}</code>
    </p>
  );
  if (r.undoes !== undefined) {
    return (
      <div class="receipt receipt-undo">
        <p class="status">
          <span aria-hidden="true">↶ </span>Undid <code>{r.undoes}</code>: {r.summary}
        </p>
        {props.undone !== undefined && (
          <table class="undo-table">
            <caption>What the undo did with each effect</caption>
            <thead>
              <tr>
                <th scope="col">Effect of the commit</th>
                <th scope="col">Now</th>
                <th scope="col">How</th>
              </tr>
            </thead>
            <tbody>
              {props.undone.map((line, i) => (
                <tr key={i} class={`undo-${line.outcome.replace(' ', '-')}`}>
                  <td>
                    <code>{line.effect}</code>
                  </td>
                  <td class="outcome">{line.outcome}</td>
                  <td>{line.note}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
        <Effects effects={r.effects} />
        {r.result !== undefined && <pre class="result">{renderValue(r.result)}</pre>}
        {signed}
      </div>
    );
  }
  return (
    <div class="receipt">
      <p class="status">
        <span aria-hidden="true">✓ </span>
        {r.summary} <code class="id">{r.id}</code>
        {props.replay === true && <span class="tag">replay</span>}
      </p>
      <Facts
        items={[
          ['Cost', r.cost === null ? 'free' : renderMoney(r.cost)],
          ['Undo', r.undo === null ? 'irreversible' : `until ${renderTime(r.undo.until)}`],
          ['At', renderTime(r.at)],
        ]}
      />
      {r.result !== undefined && <pre class="result">{renderValue(r.result)}</pre>}
      {signed}
      {r.undo !== null && (
        <div class="actions">
          <button type="button" onClick={() => props.actions.undo(r)}>
            Undo {r.id}
          </button>
        </div>
      )}
    </div>
  );
}

/** The reply for a person: what it says, and what can be done next. */
export function ReplyView(props: {
  reply: FinalReply;
  actions: ReplyActions;
  undone?: UndoLine[] | undefined;
}) {
  const { reply, actions } = props;
  switch (reply.kind) {
    case 'BRIEF':
      return (
        <div class="brief">
          <p>
            <strong>{reply.service.name}</strong> <code>{reply.service.id}</code>
            {reply.service.summary !== undefined && <> — {reply.service.summary}</>}
          </p>
          <ul class="capabilities">
            {reply.capabilities.map((c) => (
              <li key={c.name}>
                <span class={`tag tag-${c.kind}`}>{c.kind}</span> <code>{c.name}</code>
                {c.summary !== undefined && <span class="muted"> — {c.summary}</span>}
              </li>
            ))}
          </ul>
        </div>
      );
    case 'ANSWER':
      return <pre class="result">{renderValue(reply.data)}</pre>;
    case 'CLARIFY':
      return (
        <div class="clarify">
          <p class="question">
            <span aria-hidden="true">? </span>
            {reply.question}
          </p>
          <fieldset class="options">
            <legend class="visually-hidden">{reply.question}</legend>
            {reply.options.map((option, i) => (
              <button key={i} type="button" onClick={() => actions.pick(option)}>
                {i + 1}. {option.label}
              </button>
            ))}
          </fieldset>
          <p class="muted small">
            Each option is a params patch: picking one merges it into the intent and sends it again.
          </p>
        </div>
      );
    case 'PROPOSALS':
      return (
        <div class="proposals">
          {reply.proposals.length > 1 && (
            <p class="muted">
              {reply.proposals.length} alternatives: nothing happens until one is committed.
            </p>
          )}
          {reply.proposals.map((p, i) => (
            <ProposalCard key={p.id} proposal={p} actions={actions} label={`Proposal ${i + 1}`} />
          ))}
        </div>
      );
    case 'RECEIPT':
      return (
        <ReceiptView
          receipt={reply.receipt}
          actions={actions}
          undone={props.undone}
          replay={reply.replay === true}
          signedBy={reply.signed?.by}
        />
      );
    case 'ERROR':
      return (
        <div class="error-reply">
          <p class="status">
            <span aria-hidden="true">✗ </span>
            <code>{reply.code}</code> {reply.message}
          </p>
          {reply.consent !== undefined && (
            <p class="muted">
              The principal must approve proposal <code>{reply.consent.proposal}</code>: see the
              consent screen.
            </p>
          )}
          {reply.fix !== undefined && reply.fix.length > 0 && (
            <fieldset class="options">
              <legend class="visually-hidden">Fixes the service suggests</legend>
              {reply.fix.map((fix, i) =>
                fix.params === undefined ? (
                  <p key={i} class="muted">
                    Fix: {fix.say}
                  </p>
                ) : (
                  <button key={i} type="button" onClick={() => actions.fix(fix)}>
                    Apply fix: {fix.say}
                  </button>
                ),
              )}
            </fieldset>
          )}
        </div>
      );
  }
}

/** §8: what a budget left out, each with its EXPAND handle. */
export function MoreList(props: { more: readonly More[]; expand(more: More): void }) {
  return (
    <fieldset class="more">
      <legend class="visually-hidden">Parts left out to fit the budget</legend>
      {props.more.map((m) => (
        <div key={m.handle} class="more-item">
          <span>
            <strong>{m.remaining}</strong> more at <code>{m.path}</code> — handle{' '}
            <code>{m.handle}</code> (~{m.est} tokens)
          </span>
          <button type="button" onClick={() => props.expand(m)}>
            EXPAND {m.path}
          </button>
        </div>
      ))}
    </fieldset>
  );
}
