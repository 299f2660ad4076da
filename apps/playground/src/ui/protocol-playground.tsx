import { ConsentMismatchError, type RequestDraft } from '@parley/client';
import {
  type ConsentRequest,
  consentGrant,
  encodeGrant,
  type FinalReply,
  type JsonObject,
  mergePatch,
  type Proposal,
  type Receipt,
  undoOutcome,
} from '@parley/protocol';
import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import { AgentSession, type Exchange } from '../protocol/agent-session.js';
import { type Approver, loadApprovers, removeApprover } from '../protocol/approvers.js';
import {
  type BrowserKeys,
  consentSignersFor,
  createKeys,
  loadOrCreateKeys,
  markConsentUsed,
  saveGrants,
} from '../protocol/browser-keys.js';
import { loadHistory, saveHistory } from '../protocol/history.js';
import { isPaired } from '../protocol/pairing.js';
import { bridgeUrl, SERVICES, type ServiceName } from '../protocol/services.js';
import { STORIES } from '../protocol/stories.js';
import { Composer } from './composer.js';
import { ConsentDialog } from './consent-dialog.js';
import { ExchangeCard } from './exchange-card.js';
import { PrincipalPanel } from './principal-panel.js';
import type { ReplyActions } from './reply-view.js';
import { StoryGuide } from './story-guide.js';

type PendingConsent = { service: ServiceName; request: ConsentRequest; proposal: Proposal };

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** The protocol half: the principal beside the agent, every exchange with its Lens and JSON. */
export function ProtocolPlayground() {
  const [keys, setKeys] = useState<BrowserKeys | undefined>(undefined);
  const [paired, setPaired] = useState<boolean | undefined>(undefined);
  const [grants, setGrants] = useState<string[]>([]);
  const [used, setUsed] = useState<BrowserKeys['used']>([]);
  const [exchanges, setExchanges] = useState<Exchange[]>([]);
  const [busy, setBusy] = useState(false);
  const [notice, setNotice] = useState<string | undefined>(undefined);
  const [consent, setConsent] = useState<PendingConsent | undefined>(undefined);
  const [approvers, setApprovers] = useState<Approver[]>([]);
  const session = useRef<AgentSession | undefined>(undefined);
  const log = useRef<HTMLDivElement>(null);

  const adopt = (next: BrowserKeys): void => {
    void session.current?.close();
    // The history this tab kept for this agent (history.ts), shown again after a reload.
    const past = loadHistory(next.agentKey);
    session.current = new AgentSession(
      next,
      (exchange) => setExchanges((all) => [...all, exchange]),
      past,
    );
    setKeys(next);
    setGrants(next.wallet.grants);
    setUsed([...next.used]);
    setExchanges(past);
    setPaired(undefined);
    isPaired(next.principalKey).then(setPaired);
  };

  useEffect(() => {
    loadOrCreateKeys().then(
      ({ keys: loaded }) => adopt(loaded),
      (error) => setNotice(describe(error)),
    );
    loadApprovers().then(setApprovers);
    return () => void session.current?.close();
  }, []);

  useEffect(() => {
    if (keys !== undefined) saveHistory(keys.agentKey, exchanges);
  }, [keys, exchanges]);

  useEffect(() => {
    const still = window.matchMedia('(prefers-reduced-motion: reduce)').matches;
    log.current?.lastElementChild?.scrollIntoView({
      block: 'nearest',
      behavior: still ? 'auto' : 'smooth',
    });
  }, [exchanges.length]);

  /** Sends a request as the agent; a consent_required ERROR opens the consent screen. */
  const send = async (
    service: ServiceName,
    draft: RequestDraft,
    budget?: number,
  ): Promise<FinalReply | undefined> => {
    const agent = session.current;
    if (agent === undefined) return undefined;
    setBusy(true);
    setNotice(undefined);
    try {
      const reply = await agent.send(service, draft, budget);
      if (reply.kind === 'RECEIPT' && reply.receipt.undoes === undefined) {
        // §6.6: the COMMIT spent any one-shot consent for this proposal; it is shown as used.
        const hash = agent.proposals.get(SERVICES[service].id, reply.receipt.proposal)?.hash;
        if (hash !== undefined && markConsentUsed(agent.keys, hash, reply.receipt.id)) {
          setGrants(agent.keys.wallet.grants);
          setUsed([...agent.keys.used]);
        }
      }
      if (
        reply.kind === 'ERROR' &&
        reply.code === 'consent_required' &&
        reply.consent !== undefined
      ) {
        askConsent(service, reply.consent, reply.message);
      }
      return reply;
    } catch (error) {
      setNotice(`${SERVICES[service].name}: ${describe(error)}`);
      return undefined;
    } finally {
      setBusy(false);
    }
  };

  /** §6.6: shows a consent request only when it matches a proposal this agent received. */
  const askConsent = (
    service: ServiceName,
    request: NonNullable<Extract<FinalReply, { kind: 'ERROR' }>['consent']>,
    message: string,
  ): void => {
    const agent = session.current;
    if (agent === undefined || keys === undefined) return;
    let proposal: Proposal;
    try {
      if (request.service !== SERVICES[service].id) {
        throw new ConsentMismatchError(
          'service',
          `it names ${request.service}, not ${SERVICES[service].id}`,
        );
      }
      proposal = agent.proposals.checkConsent(request);
    } catch (error) {
      setNotice(
        `Refused a consent request that does not match what the agent received: ${describe(error)}`,
      );
      return;
    }
    if (request.principal !== agent.keys.principalKey) {
      setNotice('Refused a consent request for another principal than this page’s.');
      return;
    }
    setConsent({
      service,
      proposal,
      request: {
        consent: request,
        proposal,
        service: request.service,
        url: bridgeUrl(service),
        agent: agent.keys.agentKey,
        message,
      },
    });
  };

  const commit = (service: ServiceName, proposal: Proposal): void =>
    void send(service, { verb: 'COMMIT', proposal: proposal.id, hash: proposal.hash });
  const undo = (service: ServiceName, receipt: Receipt): void =>
    void send(service, { verb: 'UNDO', receipt: receipt.id });

  /**
   * §6.6: signs the consent with the principal key, or (§E4) with the key of one of the people
   * who must approve; then commits again. While approvals are missing, the service asks again
   * and the screen comes back with one more approval counted.
   */
  const approve = async (as?: Approver): Promise<void> => {
    const pending = consent;
    const agent = session.current;
    if (pending === undefined || agent === undefined) return;
    setConsent(undefined);
    const grant = await consentGrant(
      as?.key ?? agent.keys.principal,
      pending.request.consent,
      agent.keys.agentKey,
    );
    agent.keys.wallet.add(encodeGrant(grant));
    saveGrants(agent.keys);
    setGrants(agent.keys.wallet.grants);
    commit(pending.service, pending.proposal);
  };

  const actionsFor = (exchange: Exchange): ReplyActions => ({
    pick: (option) => {
      const { request } = exchange;
      if (request.verb !== 'INTENT') return;
      void send(exchange.service, {
        verb: 'INTENT',
        capability: request.capability,
        params: mergePatch(request.params ?? {}, option.params) as JsonObject,
      });
    },
    fix: (fix) => {
      const { request } = exchange;
      if ((request.verb !== 'INTENT' && request.verb !== 'ASK') || fix.params === undefined) return;
      void send(exchange.service, {
        verb: request.verb,
        capability: request.capability,
        params: mergePatch(request.params ?? {}, fix.params) as JsonObject,
      } as RequestDraft);
    },
    commit: (proposal) => commit(exchange.service, proposal),
    undo: (receipt) => undo(exchange.service, receipt),
    expand: (more) => void send(exchange.service, { verb: 'EXPAND', handle: more.handle }),
  });

  const reask = (exchange: Exchange, budget: number): void => {
    const { parley: _p, id: _i, grants: _g, proof: _r, budget: _b, ...draft } = exchange.request;
    void send(exchange.service, draft as RequestDraft, budget);
  };

  const receipts = useMemo(() => {
    const byId = new Map<string, Receipt>();
    for (const e of exchanges)
      if (e.reply.kind === 'RECEIPT') byId.set(e.reply.receipt.id, e.reply.receipt);
    return byId;
  }, [exchanges]);

  if (keys === undefined) {
    return <p class="loading">{notice ?? 'Making keys in this browser…'}</p>;
  }
  const context = {
    exchanges,
    send: (s: ServiceName, d: RequestDraft, b?: number) => void send(s, d, b),
    commit,
    undo,
  };
  const ready = paired === true && grants.length > 0;
  return (
    <div class="playground">
      <PrincipalPanel
        keys={keys}
        approvers={approvers}
        approversChanged={setApprovers}
        removeApprover={(key) => setApprovers(removeApprover(key, approvers))}
        paired={paired}
        onPaired={() => setPaired(true)}
        grants={grants}
        used={used}
        issued={(token) => {
          keys.wallet.add(token);
          saveGrants(keys);
          setGrants(keys.wallet.grants);
        }}
        remove={(token) => {
          keys.wallet.remove(token);
          saveGrants(keys);
          setGrants(keys.wallet.grants);
        }}
        newKeys={() => void createKeys().then(adopt)}
      />
      <section class="agent" aria-labelledby="agent-title">
        <h2 id="agent-title">Agent</h2>
        {!ready && (
          <p class="hint">
            {paired !== true
              ? 'Pair the page (on the left) so the services trust your principal; until then the agent can discover and read, but not commit.'
              : 'Give the agent a grant (on the left) before it commits anything.'}
          </p>
        )}
        <div class="stories">
          {STORIES.map((story) => (
            <StoryGuide
              key={story.id}
              id={story.id}
              title={story.title}
              blurb={story.blurb}
              steps={story.steps(context)}
              busy={busy}
            />
          ))}
        </div>
        <Composer
          exchanges={exchanges}
          busy={busy}
          send={(s, d, b) => void send(s, d, b)}
          proposalHash={(service, id) =>
            session.current?.proposals.get(SERVICES[service].id, id)?.hash
          }
        />
        {notice !== undefined && (
          <p class="problem" role="alert">
            {notice}
          </p>
        )}
        <div class="log" ref={log} role="log" aria-label="Requests and replies">
          {exchanges.length === 0 ? (
            <p class="empty">
              Nothing sent yet. Start a story above, or send a request by hand: every reply shows up
              here for a person, then as the model would read it, Lens beside JSON.
            </p>
          ) : (
            exchanges.map((exchange) => {
              const reply = exchange.reply;
              const undone =
                reply.kind === 'RECEIPT' && reply.receipt.undoes !== undefined
                  ? (() => {
                      const original = receipts.get(reply.receipt.undoes as string);
                      return original === undefined
                        ? undefined
                        : undoOutcome(original, reply.receipt);
                    })()
                  : undefined;
              return (
                <ExchangeCard
                  key={exchange.n}
                  exchange={exchange}
                  actions={actionsFor(exchange)}
                  reask={(budget) => reask(exchange, budget)}
                  undone={undone}
                />
              );
            })
          )}
        </div>
      </section>
      {consent !== undefined && (
        <ConsentDialog
          request={consent.request}
          approvers={approvers}
          approved={consentSignersFor(keys, consent.request.consent.hash)}
          approve={(as) => void approve(as)}
          decline={() => {
            setConsent(undefined);
            setNotice(
              'You declined: nothing was signed, and the agent cannot commit that proposal.',
            );
          }}
        />
      )}
    </div>
  );
}
