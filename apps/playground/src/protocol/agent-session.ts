import { connect, type ParleyClient, ProposalMemory, type RequestDraft } from '@parley/client';
import { type FinalReply, hashProposal, type Proposal, type Request } from '@parley/protocol';
import type { BrowserKeys } from './browser-keys.js';
import { bridgeUrl, SERVICES, type ServiceName } from './services.js';

/** One request as it went over the wire and the final reply it got. */
export type Exchange = {
  n: number;
  service: ServiceName;
  request: Request;
  reply: FinalReply;
  /** Unix ms. */
  at: number;
};

/**
 * The agent's side of the page: one client per service over its HTTP bridge (the fetch
 * transport), the agent's wallet, and one proposal memory for the §6.6 consent check. Every
 * request and reply is handed to `record` exactly as sent and received.
 */
export class AgentSession {
  readonly keys: BrowserKeys;
  readonly proposals = new ProposalMemory();
  readonly #clients = new Map<ServiceName, Promise<ParleyClient>>();
  readonly #record: (exchange: Exchange) => void;
  #n = 0;

  /**
   * `past` is the history kept across a reload: its numbers go on from the last, and its
   * proposals are remembered again, so a consent for one of them still matches (§6.6).
   */
  constructor(keys: BrowserKeys, record: (exchange: Exchange) => void, past: Exchange[] = []) {
    this.keys = keys;
    this.#record = record;
    for (const exchange of past) {
      this.#n = Math.max(this.#n, exchange.n);
      this.#remember(SERVICES[exchange.service].id, exchange.reply);
    }
  }

  /** The client for `service`, connected on first use. */
  client(service: ServiceName): Promise<ParleyClient> {
    let client = this.#clients.get(service);
    if (client === undefined) {
      client = connect(bridgeUrl(service), {
        wallet: this.keys.wallet,
        proposals: this.proposals,
        agentName: 'parley playground',
        onExchange: (request, reply) =>
          this.#record({ n: ++this.#n, service, request, reply, at: Date.now() }),
      });
      client.catch(() => this.#clients.delete(service));
      this.#clients.set(service, client);
    }
    return client;
  }

  /**
   * Sends any request and returns its final reply, ERROR included. Proposals received (in
   * PROPOSALS, or in an EXPAND of a proposals list) are remembered once their hash checks
   * (§5.1), for the consent check (§6.6).
   */
  async send(service: ServiceName, draft: RequestDraft, budget?: number): Promise<FinalReply> {
    const client = await this.client(service);
    const options = budget === undefined ? {} : { budget };
    // HELLO through hello(), so the client learns the service id and needs no HELLO of its own.
    const reply =
      draft.verb === 'HELLO' ? await client.hello(options) : await client.request(draft, options);
    const serviceId = client.service?.id;
    if (serviceId !== undefined) this.#remember(serviceId, reply);
    return reply;
  }

  #remember(serviceId: string, reply: FinalReply): void {
    let received: unknown[] = [];
    if (reply.kind === 'PROPOSALS') received = reply.proposals;
    else if (reply.kind === 'ANSWER' && isRecord(reply.data) && Array.isArray(reply.data.items)) {
      received = reply.data.items;
    }
    const proposals = received.filter(
      (p): p is Proposal => isRecord(p) && typeof p.hash === 'string' && hashCovers(p as Proposal),
    );
    if (proposals.length > 0) this.proposals.remember(serviceId, proposals);
  }

  async close(): Promise<void> {
    for (const client of this.#clients.values()) {
      await client.then((c) => c.close()).catch(() => undefined);
    }
    this.#clients.clear();
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** §5.1: whether a proposal carries the hash of what it shows. */
function hashCovers(proposal: Proposal): boolean {
  try {
    return hashProposal(proposal) === proposal.hash;
  } catch {
    return false;
  }
}
