import type { RequestDraft } from '@parley/client';
import type { Capability, JsonObject } from '@parley/protocol';
import { useState } from 'preact/hooks';
import type { Exchange } from '../protocol/agent-session.js';
import { exampleParams, SERVICE_NAMES, SERVICES, type ServiceName } from '../protocol/services.js';

const VERBS = ['HELLO', 'ASK', 'INTENT', 'COMMIT', 'UNDO', 'EXPAND'] as const;
type ComposerVerb = (typeof VERBS)[number];

/** The capability the composer starts from for each service and kind of request. */
const FIRST_CAPABILITY: Record<ServiceName, { ask: string; intent: string }> = {
  calendar: { ask: 'calendar.find', intent: 'calendar.reschedule' },
  shop: { ask: 'shop.search', intent: 'shop.order' },
};

/** The capabilities the last BRIEF of `service` listed. */
function capabilitiesOf(exchanges: readonly Exchange[], service: ServiceName): Capability[] {
  for (let i = exchanges.length - 1; i >= 0; i--) {
    const e = exchanges[i] as Exchange;
    if (e.service === service && e.reply.kind === 'BRIEF') return e.reply.capabilities;
  }
  return [];
}

/** Ids seen in replies from `service`: proposals, receipts, EXPAND handles. */
function seen(exchanges: readonly Exchange[], service: ServiceName) {
  const proposals: string[] = [];
  const receipts: string[] = [];
  const handles: string[] = [];
  for (const { service: s, reply } of exchanges) {
    if (s !== service) continue;
    if (reply.kind === 'PROPOSALS') proposals.push(...reply.proposals.map((p) => p.id));
    if (reply.kind === 'RECEIPT' && reply.receipt.undoes === undefined)
      receipts.push(reply.receipt.id);
    if ('more' in reply) handles.push(...(reply.more ?? []).map((m) => m.handle));
  }
  return { proposals, receipts, handles };
}

/**
 * Any request to either service, by hand: the verb, its capability and params (JSON), or the
 * proposal, receipt or handle it is about, and an optional token budget (§3).
 */
export function Composer(props: {
  exchanges: readonly Exchange[];
  busy: boolean;
  send(service: ServiceName, draft: RequestDraft, budget?: number): void;
  proposalHash(service: ServiceName, id: string): string | undefined;
}) {
  const [service, setService] = useState<ServiceName>('calendar');
  const [verb, setVerb] = useState<ComposerVerb>('HELLO');
  const [capability, setCapability] = useState(FIRST_CAPABILITY.calendar.ask);
  const [params, setParams] = useState(
    JSON.stringify(exampleParams(FIRST_CAPABILITY.calendar.ask), null, 2),
  );
  const [target, setTarget] = useState('');
  const [auto, setAuto] = useState(false);
  const [budget, setBudget] = useState('');
  const [problem, setProblem] = useState<string | undefined>(undefined);

  const known = capabilitiesOf(props.exchanges, service);
  const kind = verb === 'ASK' ? 'ask' : 'intent';
  const choices = known.filter((c) => c.kind === kind).map((c) => c.name);
  const ids = seen(props.exchanges, service);
  const targets = verb === 'COMMIT' ? ids.proposals : verb === 'UNDO' ? ids.receipts : ids.handles;

  const chooseCapability = (name: string): void => {
    setCapability(name);
    setParams(JSON.stringify(exampleParams(name), null, 2));
  };

  const submit = (event: Event): void => {
    event.preventDefault();
    const budgetValue = budget.trim() === '' ? undefined : Number(budget);
    if (budgetValue !== undefined && (!Number.isSafeInteger(budgetValue) || budgetValue < 1)) {
      setProblem('The budget is a whole number of tokens, 1 or more.');
      return;
    }
    if ((verb === 'COMMIT' || verb === 'UNDO' || verb === 'EXPAND') && target.trim() === '') {
      setProblem(
        `Choose the ${verb === 'COMMIT' ? 'proposal' : verb === 'UNDO' ? 'receipt' : 'handle'} first.`,
      );
      return;
    }
    let draft: RequestDraft;
    switch (verb) {
      case 'HELLO':
        draft = { verb: 'HELLO' };
        break;
      case 'ASK':
      case 'INTENT': {
        let parsed: unknown;
        try {
          parsed = params.trim() === '' ? {} : JSON.parse(params);
        } catch {
          setProblem('The params are not JSON: write an object such as {"query": "ana"}.');
          return;
        }
        if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
          setProblem('The params must be a JSON object.');
          return;
        }
        draft =
          verb === 'ASK'
            ? { verb, capability, params: parsed as JsonObject }
            : { verb, capability, params: parsed as JsonObject, ...(auto ? { auto: true } : {}) };
        break;
      }
      case 'COMMIT': {
        const hash = props.proposalHash(service, target.trim());
        if (hash === undefined) {
          setProblem(`No proposal "${target.trim()}" came from the ${SERVICES[service].name}.`);
          return;
        }
        draft = { verb, proposal: target.trim(), hash };
        break;
      }
      case 'UNDO':
        draft = { verb, receipt: target.trim() };
        break;
      case 'EXPAND':
        draft = { verb, handle: target.trim() };
        break;
    }
    setProblem(undefined);
    props.send(service, draft, budgetValue);
  };

  return (
    <form class="composer card" onSubmit={submit} aria-labelledby="composer-title">
      <h3 id="composer-title">Send a request</h3>
      <div class="row">
        <div>
          <label for="composer-service">Service</label>
          <select
            id="composer-service"
            value={service}
            onChange={(e) => {
              const next = e.currentTarget.value as ServiceName;
              setService(next);
              chooseCapability(FIRST_CAPABILITY[next][verb === 'INTENT' ? 'intent' : 'ask']);
            }}
          >
            {SERVICE_NAMES.map((name) => (
              <option key={name} value={name}>
                {SERVICES[name].name} ({SERVICES[name].id})
              </option>
            ))}
          </select>
        </div>
        <div>
          <label for="composer-verb">Verb</label>
          <select
            id="composer-verb"
            value={verb}
            onChange={(e) => {
              const next = e.currentTarget.value as ComposerVerb;
              setVerb(next);
              setTarget('');
              if (next === 'INTENT') chooseCapability(FIRST_CAPABILITY[service].intent);
              if (next === 'ASK') chooseCapability(FIRST_CAPABILITY[service].ask);
            }}
          >
            {VERBS.map((v) => (
              <option key={v} value={v}>
                {v}
              </option>
            ))}
          </select>
        </div>
        <div>
          <label for="composer-budget">Budget</label>
          <input
            id="composer-budget"
            type="number"
            min="1"
            placeholder="default"
            value={budget}
            onInput={(e) => setBudget(e.currentTarget.value)}
          />
        </div>
      </div>
      {(verb === 'ASK' || verb === 'INTENT') && (
        <>
          <label for="composer-capability">Capability</label>
          <input
            id="composer-capability"
            list="composer-capabilities"
            value={capability}
            onInput={(e) => chooseCapability(e.currentTarget.value)}
          />
          <datalist id="composer-capabilities">
            {choices.map((c) => (
              <option key={c} value={c} />
            ))}
          </datalist>
          <label for="composer-params">Params (JSON)</label>
          <textarea
            id="composer-params"
            rows={4}
            spellcheck={false}
            value={params}
            onInput={(e) => setParams(e.currentTarget.value)}
          />
          {verb === 'INTENT' && (
            <label class="check">
              <input
                type="checkbox"
                checked={auto}
                onChange={(e) => setAuto(e.currentTarget.checked)}
              />
              auto: commit at once if a grant allows it outright and it can be undone (§4.3.1)
            </label>
          )}
        </>
      )}
      {(verb === 'COMMIT' || verb === 'UNDO' || verb === 'EXPAND') && (
        <>
          <label for="composer-target">
            {verb === 'COMMIT' ? 'Proposal id' : verb === 'UNDO' ? 'Receipt id' : 'Handle'}
          </label>
          <select
            id="composer-target"
            value={target}
            onChange={(e) => setTarget(e.currentTarget.value)}
          >
            <option value="">
              {targets.length === 0 ? '(none received yet)' : 'choose one received'}
            </option>
            {targets.map((t) => (
              <option key={t} value={t}>
                {t}
              </option>
            ))}
          </select>
        </>
      )}
      {problem !== undefined && (
        <p class="problem" role="alert">
          {problem}
        </p>
      )}
      <button type="submit" class="primary" disabled={props.busy}>
        Send {verb}
      </button>
    </form>
  );
}
