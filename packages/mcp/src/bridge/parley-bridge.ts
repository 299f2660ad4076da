import type { CallToolResult } from '@modelcontextprotocol/server';
import {
  ConsentMismatchError,
  type ParleyClient,
  ProposalMemory,
  type Wallet,
} from '@parley/client';
import {
  type Consent,
  consentGrant,
  encodeGrant,
  GrantFormatError,
  type JsonObject,
  type KeyPair,
  type More,
  ParleyError,
  type Proposal,
  publicKeyString,
} from '@parley/protocol';
import { McpUsageError } from '../mcp-usage-error.js';
import { toolError, unexpectedError } from '../tool-result.js';
import type { ParleyMcpOptions } from './bridge-options.js';
import { type ConsentInbox, DEFAULT_CONSENT_INBOX } from './consent-inbox.js';
import { failureResult, replyResult } from './reply-text.js';
import { ServiceLink } from './service-link.js';
import { type ShownProposal, ShownProposals } from './shown-proposals.js';

export interface AskArguments {
  service?: string;
  capability: string;
  params?: JsonObject;
  budget?: number;
}
export interface IntentArguments extends AskArguments {
  goal?: string;
}
export interface CommitArguments {
  proposal: string;
}
export interface UndoArguments {
  receipt: string;
  service?: string;
}
export interface ExpandArguments {
  handle: string;
  service?: string;
  budget?: number;
}

/** What a COMMIT came to: a result for the model, or a consent request to settle first. */
export type CommitStep =
  | { kind: 'result'; result: CallToolResult }
  | { kind: 'consent'; error: ParleyError; consent: Consent; shown: ShownProposal };

/**
 * The Parley side of `parley mcp`: one connection per service, the BRIEFs, every proposal shown
 * to the model (so a commit is bound to it), and the receipts and EXPAND handles it has seen.
 * Each verb resolves with the tool result for the model; failures become tool errors.
 */
export class ParleyBridge {
  readonly links: readonly ServiceLink[];
  readonly wallet: Wallet;
  readonly principal: KeyPair | undefined;
  readonly approvals: ConsentInbox;
  readonly report: (error: Error) => void;
  /** Unix milliseconds (proposal expiry, the consent screen's relative times). */
  readonly now: () => number;
  readonly #shown: ShownProposals;
  readonly #receipts = new Map<string, ServiceLink>();
  readonly #handles = new Map<string, { link: ServiceLink; proposals: boolean }>();
  readonly #reload: ParleyMcpOptions['reloadGrants'];
  /**
   * docs/extensions.md §E4: consent grants the person at the host signed for a proposal whose
   * COMMIT still waits for other people's approvals, by proposal hash; dropped once it commits.
   */
  readonly #approved = new Map<string, string>();

  private constructor(options: ParleyMcpOptions) {
    const proposals = new ProposalMemory(options.now);
    const settings = {
      wallet: options.wallet,
      proposals,
      ...(options.timeout === undefined ? {} : { timeout: options.timeout }),
      ...(options.connectTimeout === undefined ? {} : { connectTimeout: options.connectTimeout }),
    };
    this.links = options.urls.map((url) => new ServiceLink(url, settings));
    this.wallet = options.wallet;
    this.principal = options.principal;
    this.approvals = options.approvals ?? DEFAULT_CONSENT_INBOX;
    this.report =
      options.onError ?? ((error) => process.stderr.write(`parley mcp: ${error.message}\n`));
    this.now = options.now ?? Date.now;
    this.#shown = new ShownProposals(this.now);
    this.#reload = options.reloadGrants;
  }

  /**
   * Connects to every service and learns its BRIEF. A service that cannot be reached now is
   * reported and tried again on its first call; at least one URL is required.
   */
  static async open(options: ParleyMcpOptions): Promise<ParleyBridge> {
    if (options.urls.length === 0)
      throw new McpUsageError('parley mcp needs at least one service URL');
    const bridge = new ParleyBridge(options);
    await Promise.all(
      bridge.links.map((link) =>
        link.client().catch((error: unknown) => {
          const reason = error instanceof Error ? error.message : String(error);
          bridge.report(new Error(`${link.url} is not reachable yet: ${reason}`));
        }),
      ),
    );
    return bridge;
  }

  /** The names a `service` argument may take: service ids, or URLs while unknown. */
  serviceNames(): string[] {
    return this.links.map((link) => link.id ?? link.url);
  }

  /** §4.2 ASK. */
  ask(args: AskArguments): Promise<CallToolResult> {
    return this.#call(this.#linkFor(args.service, args.capability), async (link) => {
      const client = await link.client();
      const reply = await client.ask(args.capability, args.params, budgetOf(args));
      this.#keepHandles(link, reply.more, () => false);
      return replyResult(reply);
    });
  }

  /** §4.3 INTENT: the proposals in the reply are the ones the model may commit. */
  intent(args: IntentArguments): Promise<CallToolResult> {
    return this.#call(this.#linkFor(args.service, args.capability), async (link) => {
      const client = await link.client();
      const reply = await client.intent(args.capability, args.params, {
        ...budgetOf(args),
        ...(args.goal === undefined ? {} : { goal: args.goal }),
      });
      if (reply.kind === 'PROPOSALS') {
        this.#shown.remember(link, reply.proposals);
        this.#keepHandles(link, reply.more, (entry) => entry.path === 'proposals');
      }
      return replyResult(reply);
    });
  }

  /** The proposal `id` as shown to the model, or the tool error to return. */
  shownProposal(id: string): { shown: ShownProposal } | { error: CallToolResult } {
    const shown = this.#shown.get(id);
    if (shown === undefined) {
      return {
        error: toolError(
          `No proposal ${JSON.stringify(id)} was shown by this bridge; call parley_intent and commit one of the proposal ids it returns.`,
        ),
      };
    }
    if (this.#shown.expired(shown)) {
      return {
        error: toolError(`Proposal ${id} has expired; call parley_intent again for a fresh one.`),
      };
    }
    return { shown };
  }

  /** §4.4 COMMIT of a shown proposal, by the hash the bridge holds. */
  async commitStep(shown: ShownProposal): Promise<CommitStep> {
    await this.#reloadGrants();
    const { link, proposal } = shown;
    try {
      const client = await link.client();
      const reply = await client.commit(proposal);
      this.#receipts.set(reply.receipt.id, link);
      this.#forgetApproval(proposal.hash);
      return { kind: 'result', result: replyResult(reply) };
    } catch (error) {
      if (error instanceof ParleyError && error.code === 'consent_required' && error.consent) {
        return { kind: 'consent', error, consent: error.consent, shown };
      }
      return { kind: 'result', result: this.#failed(error, link) };
    }
  }

  /**
   * §6.6: the proposal a consent request is about, checked against what this bridge showed for
   * this commit: same proposal id, hash, service and capability. A refusal is one sentence.
   */
  async checkConsent(shown: ShownProposal, consent: Consent): Promise<Proposal | string> {
    const id = shown.proposal.id;
    const refuse = (what: string, why: string): string =>
      `Refused the service's consent request: its ${what} does not match proposal ${id} as this bridge showed it (${why}). Nothing was signed or committed.`;
    if (consent.proposal !== id) {
      return refuse('proposal', `it names proposal ${JSON.stringify(consent.proposal)}`);
    }
    try {
      const client = await shown.link.client();
      return client.checkConsent(consent);
    } catch (error) {
      if (error instanceof ConsentMismatchError) return refuse(error.mismatch, error.message);
      throw error;
    }
  }

  /**
   * Whether the bridge holds the principal key this consent request names, or (docs/extensions.md
   * §E4) one of the keys an approvals caveat lists.
   */
  canSign(consent: Consent): boolean {
    if (this.principal === undefined) return false;
    const key = publicKeyString(this.principal);
    return key === consent.principal || consent.approvals?.of.includes(key) === true;
  }

  /**
   * §6.6: signs the one-shot consent grant with the principal key and adds it to the wallet.
   * Call only after the person explicitly approved the proposal shown to them.
   */
  async signConsent(consent: Consent): Promise<string> {
    if (this.principal === undefined) throw new McpUsageError('no principal key to sign consent');
    const token = encodeGrant(await consentGrant(this.principal, consent, this.wallet.publicKey));
    this.wallet.add(token);
    return token;
  }

  /**
   * §E4: keeps the consent grant `token` the person approved while the COMMIT waits for other
   * listed people, so their approvals add to it and the person is not asked again.
   */
  keepApproval(consent: Consent, token: string): void {
    this.#approved.set(consent.hash, token);
  }

  /** §E4: whether the person at the host already approved this proposal and it is kept. */
  hasApproved(consent: Consent): boolean {
    const token = this.#approved.get(consent.hash);
    return token !== undefined && this.wallet.grants.includes(token);
  }

  #forgetApproval(hash: string): void {
    const token = this.#approved.get(hash);
    if (token === undefined) return;
    this.wallet.remove(token);
    this.#approved.delete(hash);
  }

  /** §4.5 UNDO of a receipt, at the service that issued it. */
  undo(args: UndoArguments): Promise<CallToolResult> {
    const known = this.#receipts.get(args.receipt);
    const target =
      args.service !== undefined || known === undefined ? this.#linkFor(args.service) : known;
    return this.#call(target, async (link) => {
      await this.#reloadGrants();
      const client = await link.client();
      return replyResult(await client.undo(args.receipt));
    });
  }

  /** §4.6 EXPAND of a handle, at the service that issued it. */
  expand(args: ExpandArguments): Promise<CallToolResult> {
    const known = this.#handles.get(args.handle);
    const target =
      args.service !== undefined || known === undefined ? this.#linkFor(args.service) : known.link;
    return this.#call(target, async (link) => {
      const client = await link.client();
      const reply = await client.expand(args.handle, budgetOf(args));
      // §8: every handle in the EXPAND of a proposals list continues that list.
      const proposals = known?.proposals === true;
      if (proposals) this.#showExpandedProposals(link, client, reply.data);
      this.#keepHandles(link, reply.more, () => proposals);
      return replyResult(reply);
    });
  }

  async close(): Promise<void> {
    await Promise.all(this.links.map((link) => link.close()));
  }

  #linkFor(service: string | undefined, capability?: string): ServiceLink | CallToolResult {
    const names = this.serviceNames().join(', ');
    if (service !== undefined) {
      const named = this.links.find((link) => link.isNamed(service));
      return (
        named ?? toolError(`No service is named ${JSON.stringify(service)}; use one of: ${names}.`)
      );
    }
    const [only] = this.links;
    if (this.links.length === 1 && only !== undefined) return only;
    if (capability !== undefined) {
      const offering = this.links.filter((link) => link.offers(capability));
      if (offering.length === 1 && offering[0] !== undefined) return offering[0];
    }
    return toolError(`Name the service with the service argument: one of ${names}.`);
  }

  async #call(
    target: ServiceLink | CallToolResult,
    body: (link: ServiceLink) => Promise<CallToolResult>,
  ): Promise<CallToolResult> {
    if (!(target instanceof ServiceLink)) return target;
    try {
      return await body(target);
    } catch (error) {
      return this.#failed(error, target);
    }
  }

  #failed(error: unknown, link: ServiceLink): CallToolResult {
    return failureResult(error, link) ?? unexpectedError(error, this.report);
  }

  /** Remembers which service issued each handle, and whether it continues a proposals list. */
  #keepHandles(
    link: ServiceLink,
    more: readonly More[] | undefined,
    continuesProposals: (entry: More) => boolean,
  ): void {
    for (const entry of more ?? []) {
      this.#handles.set(entry.handle, { link, proposals: continuesProposals(entry) });
    }
  }

  /** Proposals fetched by EXPAND are shown too, as the client received and hash-checked them. */
  #showExpandedProposals(link: ServiceLink, client: ParleyClient, data: unknown): void {
    const items = (data as { items?: unknown } | null)?.items;
    const service = link.id;
    if (!Array.isArray(items) || service === undefined) return;
    const received = items
      .map((item) => (item as { id?: unknown } | null)?.id)
      .filter((id): id is string => typeof id === 'string')
      .map((id) => client.proposals.get(service, id))
      .filter((p): p is Proposal => p !== undefined);
    this.#shown.remember(link, received);
  }

  async #reloadGrants(): Promise<void> {
    if (this.#reload === undefined) return;
    let tokens: readonly string[];
    try {
      tokens = await this.#reload();
    } catch (error) {
      this.report(error instanceof Error ? error : new Error(String(error)));
      return;
    }
    for (const token of tokens) {
      try {
        this.wallet.add(token);
      } catch (error) {
        // Grants held by another key are someone else's; a token that does not decode is reported.
        if (error instanceof GrantFormatError) this.report(error);
      }
    }
  }
}

function budgetOf(args: { budget?: number }): { budget?: number } {
  return args.budget === undefined ? {} : { budget: args.budget };
}
