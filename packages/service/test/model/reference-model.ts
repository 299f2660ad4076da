import {
  type Consent,
  type ErrorCode,
  type FinalReplyBody,
  hashProposal,
  type Proposal,
  type Receipt,
  type ReceiptBody,
} from '@parley/protocol';
import { type CapabilityName, offersFor, type PlanParams, SERVICE_ID } from './catalog.js';
import { type Bearings, decideCommit } from './commit-decision.js';
import type { Expected } from './expected.js';
import { type ModelGrant, type Party, verdictOf, worse } from './grant-rules.js';

/**
 * The reference model: proposals, commits, undos, auto replay, consent and spend, as SPEC v1
 * states them, in plain data with no I/O. Each request method returns what the service must
 * answer and a `learn` step that records the reply once it matched (the ids the service drew).
 * Where the spec leaves a choice open (which of two failing checks a request hears about, how
 * long an expired proposal is remembered), the model takes the service's documented choice
 * (packages/service/README.md) or its order of checks, and its comments say which.
 */

/** §6.5: services MUST reject proofs with |now − ts| > 300. */
const PROOF_WINDOW = 300;
/** §4.3.1: remember auto frames until 900 s after the later of arrival and proof.ts. */
const AUTO_REPLAY = 900;
/** §5.1: the reference rounds expiry up to whole minutes. */
const EXPIRY_ROUNDING = 60;
/** Service README, limits: an uncommitted proposal is kept an hour past its expiry. */
const PROPOSAL_GRACE = 3600;

/** Who sent a request and with what: `signer` null means no proof (§3). */
export type Credentials = { signer: Party | null; grants: string[]; ts: number };
export type IntentFacts = Credentials & {
  frameId: string;
  auto: boolean;
  capability: CapabilityName;
  params: PlanParams;
};
export type CommitFacts = Credentials & { proposal: string; hash: string };
export type UndoFacts = Credentials & { receipt: string };

/** The model's prediction for one request, and how to absorb the reply that matched it. */
export type Step = { expected: Expected; learn(reply: FinalReplyBody): void };

export type Commit = { receipt: Receipt; auto: boolean; holder: Party; principal: Party };
export type ModelProposal = {
  proposal: Proposal;
  holder: Party | null;
  principal: Party | null;
  /** Kept for COMMIT (§4.4): authorized INTENTs only, until swept past expiry plus grace. */
  stored: boolean;
  commit?: Commit;
  reversal?: Receipt;
};
type ModelReceipt = { proposal: string; reversal: boolean };
type AutoMemory = { until: number; proposal: string | null; reply: FinalReplyBody | null };

const nothing = (): void => {};
const error = (code: ErrorCode): Step => ({ expected: { kind: 'ERROR', code }, learn: nothing });

export class ReferenceModel {
  now: number;
  readonly proposals = new Map<string, ModelProposal>();
  /** Proposal ids in the order they were offered (picks count from the newest). */
  readonly offered: string[] = [];
  readonly receipts = new Map<string, ModelReceipt>();
  readonly receiptOrder: string[] = [];
  readonly consents: Consent[] = [];
  readonly #grants = new Map<string, ModelGrant>();
  readonly #autos = new Map<string, AutoMemory>();
  /** §6.3: cumulative spend reserved per grant (each grant here is one root block). */
  readonly #spent = new Map<string, number>();

  constructor(
    start: number,
    grants: ModelGrant[],
    readonly trusted: ReadonlySet<Party>,
    readonly keyOf: (party: Party) => string,
    /** How many service instances share the store (each with its own caches). */
    readonly instances = 1,
  ) {
    this.now = start;
    for (const grant of grants) this.addGrant(grant);
  }

  addGrant(grant: ModelGrant): void {
    this.#grants.set(grant.name, grant);
  }

  advance(seconds: number): void {
    this.now += seconds;
  }

  /**
   * The times at which a rule flips: the end of an auto frame's replay memory (§4.3.1), then
   * proposal expiry (§5.1) and the end of undo windows (§4.5), newest last.
   */
  edges(): number[] {
    const times = [...this.#autos.values()].map((memory) => memory.until);
    for (const p of this.proposals.values()) {
      times.push(p.proposal.expires);
      const until = p.commit?.receipt.undo?.until;
      if (until !== undefined) times.push(until);
    }
    return times;
  }

  /** What a sweep at `at` forgets (service README, limits): nothing a client could still use. */
  sweep(at: number): void {
    for (const p of this.proposals.values()) {
      if (p.stored && p.commit === undefined && p.proposal.expires + PROPOSAL_GRACE < at) {
        p.stored = false;
      }
    }
    for (const [key, memory] of this.#autos) if (memory.until < at) this.#autos.delete(key);
  }

  /** §4.3, §4.3.1 INTENT (plain or auto). */
  intent(f: IntentFacts): Step {
    if (f.signer === null && f.grants.length > 0) return error('unauthorized'); // §3
    if (this.#staleProof(f)) return error('unauthorized'); // §6.5
    const autoKey = f.auto && f.signer !== null ? `${f.signer}/${f.frameId}` : undefined;
    const seen = autoKey === undefined ? undefined : this.#autos.get(autoKey);
    if (seen !== undefined) return this.#replayAuto(seen);
    let principal: Party | null = null;
    if (f.signer !== null && f.grants.length > 0) {
      // §6.6: any one grant authorizes; else the most actionable failure.
      let failure: 'unauthorized' | 'forbidden' | 'consent_required' | undefined;
      for (const name of f.grants) {
        const v = verdictOf(
          this.#grant(name),
          this.#facts('INTENT', f, f.capability),
          this.trusted,
        );
        if (v.ok) {
          principal = v.principal;
          break;
        }
        failure = worse(failure, v.code);
      }
      if (principal === null)
        return error(failure === 'unauthorized' ? 'unauthorized' : 'forbidden');
    }
    const expires = Math.ceil((this.now + f.params.ttl) / EXPIRY_ROUNDING) * EXPIRY_ROUNDING;
    const proposals = offersFor(f.capability, f.params).map((offer) => ({
      capability: f.capability,
      ...offer,
      expires,
    }));
    // §4.3.1: only an INTENT a trusted grant authorized can commit, so only it is remembered.
    const remember =
      principal !== null && autoKey !== undefined
        ? { key: autoKey, until: Math.max(this.now, f.ts) + AUTO_REPLAY }
        : undefined;
    const viewOnly = principal === null;
    const offer = (reply: FinalReplyBody) => {
      if (reply.kind !== 'PROPOSALS') return;
      for (const proposal of reply.proposals) {
        this.#offer({ proposal, holder: f.signer, principal, stored: !viewOnly });
      }
      if (remember !== undefined) {
        this.#autos.set(remember.key, { until: remember.until, proposal: null, reply });
      }
    };
    const plain: Step = { expected: { kind: 'PROPOSALS', proposals, viewOnly }, learn: offer };
    const first = proposals[0];
    // §4.3.1: the first proposal is committed iff a grant authorizes it outright and it is
    // undoable.
    if (remember === undefined || first === undefined || first.undo === null) return plain;
    const outcome = decideCommit(
      { ...first, hash: undefined, principal, commit: undefined },
      f as Credentials & { signer: Party },
      this.#world(),
    );
    if (outcome.kind !== 'commit') return plain; // "exactly as it would without auto"
    const at = this.now;
    const { expires: _e, risk: _r, undo, ...shown } = first;
    return {
      expected: {
        kind: 'RECEIPT',
        fresh: { ...shown, at, undo: { until: at + undo.window } },
        auto: true,
      },
      learn: (reply) => {
        const receipt = (reply as ReceiptBody).receipt;
        const unhashed = { id: receipt.proposal, ...first };
        const proposal = { ...unhashed, hash: hashProposal(unhashed) };
        const p = { proposal, holder: f.signer, principal, stored: true } as ModelProposal;
        this.#offer(p);
        this.#commit(p, receipt, outcome, true, f.signer as Party);
        this.#autos.set(remember.key, {
          until: remember.until,
          proposal: proposal.id,
          reply: null,
        });
      },
    };
  }

  /** §4.4 COMMIT, in the order the service README lists its checks. */
  commit(f: CommitFacts): Step {
    if (f.proposal.startsWith('pv_')) return error('forbidden'); // §4.4 view-only
    const p = this.proposals.get(f.proposal);
    if (p === undefined) return error('not_found');
    if (!p.stored) {
      // Swept past expiry: forgotten (not_found). An instance that has not swept its own
      // proposal cache yet still knows it, and refuses it as a stored proposal past its expiry
      // (expired, or an earlier check's refusal); never a commit, since the sweep comes an hour
      // after expiry.
      const cached = this.#commitStored(f, p).expected;
      return this.instances > 1 && cached.kind === 'ERROR'
        ? { expected: { kind: 'ERROR', code: 'not_found', or: cached.code }, learn: nothing }
        : error('not_found');
    }
    return this.#commitStored(f, p);
  }

  #commitStored(f: CommitFacts, p: ModelProposal): Step {
    if (f.hash !== p.proposal.hash) return error('conflict'); // §4.4, without the hash
    if (f.signer === null || this.#staleProof(f) || f.grants.length === 0) {
      return error('unauthorized'); // §3, §6.5
    }
    if (p.holder !== f.signer) return error('forbidden'); // §4.4 who may commit
    const creds = f as Credentials & { signer: Party };
    if (this.now > p.proposal.expires) {
      // §5.1 expired; a retry of a commit that happened still gets its receipt (§4.4).
      return p.commit === undefined ? error('expired') : this.#replayCommit(p, creds);
    }
    const outcome = decideCommit(
      { ...p.proposal, principal: p.principal, commit: p.commit },
      creds,
      this.#world(),
    );
    switch (outcome.kind) {
      case 'commit': {
        const { id: _i, hash: _h, expires: _e, risk: _r, undo, ...shown } = p.proposal;
        const at = this.now;
        return {
          expected: {
            kind: 'RECEIPT',
            fresh: {
              ...shown,
              proposal: p.proposal.id,
              at,
              undo: undo && { until: at + undo.window },
            },
            auto: false,
          },
          learn: (reply) =>
            this.#commit(p, (reply as ReceiptBody).receipt, outcome, false, creds.signer),
        };
      }
      case 'replay':
        return this.#replayOf(p);
      case 'forbidden':
        return error('forbidden');
    }
    // §4.4: a retry is authorized without per, spend and risk: never a consent prompt.
    if (p.commit !== undefined) return this.#replayCommit(p, creds);
    if (outcome.kind === 'refused') return error(outcome.code);
    // §6.6: the consent object names this proposal for the principal to approve.
    const consent: Consent = {
      proposal: p.proposal.id,
      hash: p.proposal.hash,
      service: SERVICE_ID,
      capability: p.proposal.capability,
      principal: this.keyOf(outcome.principal),
      summary: p.proposal.summary,
      expires: p.proposal.expires,
    };
    return {
      expected: { kind: 'ERROR', code: 'consent_required', consent },
      learn: () => this.consents.push(consent),
    };
  }

  /** §4.5 UNDO: authorized first (by the committing principal), then the receipt's state. */
  undo(f: UndoFacts): Step {
    const r = this.receipts.get(f.receipt);
    if (r === undefined) return error('not_found');
    if (f.signer === null || this.#staleProof(f) || f.grants.length === 0) {
      return error('unauthorized');
    }
    const p = this.proposals.get(r.proposal) as ModelProposal;
    const commit = p.commit as Commit;
    let refusal: 'unauthorized' | 'forbidden' | undefined;
    let authorized = false;
    for (const name of f.grants) {
      const facts = this.#facts('UNDO', f, commit.receipt.capability);
      const v = verdictOf(this.#grant(name), facts, this.trusted);
      if (!v.ok) refusal = worse(refusal, v.code === 'unauthorized' ? 'unauthorized' : 'forbidden');
      else if (v.principal !== commit.principal)
        refusal = worse(refusal, 'forbidden'); // §4.5
      else {
        authorized = true;
        break;
      }
    }
    if (!authorized) return error(refusal ?? 'unauthorized');
    if (r.reversal) return error('expired'); // an undo receipt has `undo: null` (§5.2)
    if (p.reversal !== undefined) {
      return { expected: { kind: 'REPLAY', receipt: p.reversal, auto: false }, learn: nothing };
    }
    const until = commit.receipt.undo?.until;
    if (until === undefined || this.now > until) return error('expired'); // §4.5
    return {
      expected: {
        kind: 'UNDONE',
        undoes: commit.receipt.id,
        at: this.now,
        proposal: p.proposal.id,
      },
      learn: (reply) => {
        const reversal = (reply as ReceiptBody).receipt;
        p.reversal = reversal;
        this.receipts.set(reversal.id, { proposal: p.proposal.id, reversal: true });
        this.receiptOrder.push(reversal.id);
      },
    };
  }

  /** §6.3: what is reserved against the grant `name`'s spend cap. */
  spent(name: string): number {
    return this.#spent.get(name) ?? 0;
  }

  /** Orders that stand: shop.order commits not undone (the service's data). */
  standingOrders(): string[] {
    return this.#committed('shop.order')
      .filter((p) => p.reversal === undefined)
      .map((p) => p.proposal.id);
  }

  /** shop.mail proposals committed (each mailed once), and those recalled by an UNDO. */
  mail(): { sent: string[]; recalled: string[] } {
    const committed = this.#committed('shop.mail');
    return {
      sent: committed.map((p) => p.proposal.id),
      recalled: committed.filter((p) => p.reversal !== undefined).map((p) => p.proposal.id),
    };
  }

  #committed(capability: CapabilityName): ModelProposal[] {
    return [...this.proposals.values()].filter(
      (p) => p.commit !== undefined && p.proposal.capability === capability,
    );
  }

  #staleProof(f: Credentials): boolean {
    return f.signer !== null && Math.abs(this.now - f.ts) > PROOF_WINDOW;
  }

  #grant(name: string): ModelGrant {
    const grant = this.#grants.get(name);
    if (grant === undefined) throw new Error(`the model has no grant ${name}`);
    return grant;
  }

  #facts(verb: 'INTENT' | 'UNDO', f: Credentials, capability: string) {
    return { verb, now: this.now, service: SERVICE_ID, capability, signer: f.signer as Party };
  }

  #world(): Bearings {
    return {
      now: this.now,
      trusted: this.trusted,
      grant: (name) => this.#grant(name),
      spent: (name) => this.spent(name),
    };
  }

  #offer(p: ModelProposal): void {
    this.proposals.set(p.proposal.id, p);
    this.offered.push(p.proposal.id);
  }

  #commit(
    p: ModelProposal,
    receipt: Receipt,
    outcome: { principal: Party; grant: string },
    auto: boolean,
    holder: Party,
  ): void {
    p.commit = { receipt, auto, holder, principal: outcome.principal };
    const grant = this.#grant(outcome.grant);
    if (grant.caveats.some((c) => 'spend' in c)) {
      const spent = this.#spent.get(outcome.grant) ?? 0;
      this.#spent.set(outcome.grant, spent + (receipt.cost?.amount ?? 0));
    }
    this.receipts.set(receipt.id, { proposal: p.proposal.id, reversal: false });
    this.receiptOrder.push(receipt.id);
  }

  /**
   * §4.4: a replay is authorized like the commit, by the same holder and principal, without
   * per, spend and risk; any other requester is refused.
   */
  #replayCommit(p: ModelProposal, f: Credentials & { signer: Party }): Step {
    const commit = p.commit as Commit;
    let failure: 'unauthorized' | 'forbidden' | undefined;
    for (const name of f.grants) {
      const v = verdictOf(
        this.#grant(name),
        {
          verb: 'COMMIT',
          now: this.now,
          service: SERVICE_ID,
          capability: p.proposal.capability,
          signer: f.signer,
          proposal: p.proposal,
        },
        this.trusted,
      );
      const authorized = v.ok || v.code === 'consent_required';
      const principal = v.ok || v.code !== 'unauthorized' ? v.principal : undefined;
      if (authorized && f.signer === commit.holder && principal === commit.principal) {
        return this.#replayOf(p);
      }
      failure = worse(
        failure,
        authorized ? 'forbidden' : v.code === 'unauthorized' ? 'unauthorized' : 'forbidden',
      );
    }
    return error(failure ?? 'unauthorized');
  }

  /** The original receipt again, saying so, and saying it was undone since if it was. */
  #replayOf(p: ModelProposal): Step {
    const commit = p.commit as Commit;
    const expected: Expected = { kind: 'REPLAY', receipt: commit.receipt, auto: commit.auto };
    if (p.reversal !== undefined) expected.undone = { receipt: p.reversal.id, at: p.reversal.at };
    return { expected, learn: nothing };
  }

  /** §4.3.1: a remembered auto frame gets its original reply; a committed one its receipt. */
  #replayAuto(memory: AutoMemory): Step {
    if (memory.proposal !== null) {
      return this.#replayOf(this.proposals.get(memory.proposal) as ModelProposal);
    }
    return { expected: { kind: 'SAME', body: memory.reply as FinalReplyBody }, learn: nothing };
  }
}
