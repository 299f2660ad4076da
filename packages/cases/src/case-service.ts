import { randomBytes } from 'node:crypto';
import {
  attributeCatalog,
  draftFromReply,
  type Elicitor,
  type PyValue,
  summarizeAttributes,
} from '@parley/consensus';
import {
  authenticate,
  type Holder,
  reissueLink,
  requireOrganizer,
  requireParty,
  revokeLinks,
} from './access.js';
import { type CheckedCase, checkNewCase, createCase, type NewCase } from './create-case.js';
import {
  createRequest,
  openRequestTokens,
  readIdempotencyKey,
  requestBodyHash,
  requestKeyHash,
} from './create-request.js';
import { CaseError } from './errors.js';
import { addEvidence, readEvidence, shareEvidence } from './evidence.js';
import {
  answerPrompt,
  confirmOwnSheet,
  editDraft,
  guardElicit,
  keepDraft,
} from './interview-steps.js';
import { TERMINAL_RETENTION_SECONDS, UNFINISHED_RETENTION_SECONDS } from './limits.js';
import { type IssuedLinks, linkUrl, tokenOfLink } from './link-url.js';
import { hashToken, openLink, TOKEN_PATTERN } from './links.js';
import {
  acceptProposal,
  cancelCase,
  closeCase,
  rejectProposal,
  reviseOwnSheet,
} from './ratification-steps.js';
import { type CaseRecord, type Clock, type EvidenceItem, isTerminal } from './record.js';
import { privateOf } from './step.js';
import type { CaseStore } from './store/case-store.js';
import { organizerView, partyView } from './views.js';

/** A message handed to a mail sender: the case title and an action, and the link when known. */
export interface OutgoingMessage {
  readonly to: string;
  readonly subject: string;
  readonly text: string;
  readonly link: string | null;
}

/** The hook a mail sender plugs into (module 10); without one, the outbox is shown instead. */
export interface MailSender {
  send(message: OutgoingMessage): Promise<void>;
}

export interface CaseServiceOptions {
  readonly store: CaseStore;
  /** Drafts sheets from answers; absent, parties write their rules by hand. */
  readonly elicitor?: Elicitor;
  readonly mail?: MailSender;
  /** Seconds since the epoch (tests pin it). */
  readonly now?: () => number;
  readonly random?: (length: number) => Uint8Array;
  /** Tries of one step when another instance moved the case meanwhile. */
  readonly attempts?: number;
}

/** Retention (module 09): 30 days after the last change, 90 once finished. */
export function expiresAt(record: CaseRecord): number {
  return (
    record.shared.updated_at +
    (isTerminal(record.shared.state) ? TERMINAL_RETENTION_SECONDS : UNFINISHED_RETENTION_SECONDS)
  );
}

/**
 * Cases over a store: every step is one pure transition applied to the case as loaded, saved
 * only if nobody moved the case meanwhile (else it is loaded and tried again), so a step is
 * atomic, and a retried step finds its work done and changes nothing. Every step is opened by a
 * capability link; what a holder gets back is their own view.
 */
export class CaseService {
  readonly #store: CaseStore;
  readonly #elicitor: Elicitor | undefined;
  readonly #mail: MailSender | undefined;
  readonly #now: () => number;
  readonly #random: (length: number) => Uint8Array;
  readonly #attempts: number;

  constructor(options: CaseServiceOptions) {
    this.#store = options.store;
    this.#elicitor = options.elicitor;
    this.#mail = options.mail;
    this.#now = options.now ?? (() => Math.floor(Date.now() / 1000));
    this.#random = options.random ?? ((n) => new Uint8Array(randomBytes(n)));
    this.#attempts = options.attempts ?? 16;
  }

  /** Who drafts the sheets, said to the person. */
  get elicitorLabel(): string | null {
    return this.#elicitor?.label ?? null;
  }

  /**
   * Opens a case; the links exist only in the answer (and, sealed, in the outbox). With an
   * idempotency key (chosen by the client, at least 128 random bits) a retry is safe: the same
   * key and the same input answer with the same case and the same links (`replayed`), even when
   * the first try's answer was lost or the two tries ran at once on two instances; the same key
   * with a different input is refused. Without a key every call opens a new case.
   */
  async create(
    input: NewCase,
    linkBase: string,
    idempotencyKey?: string,
  ): Promise<{
    caseId: string;
    links: IssuedLinks;
    names: Record<string, string>;
    replayed: boolean;
  }> {
    const key = idempotencyKey === undefined ? undefined : readIdempotencyKey(idempotencyKey);
    const checked = checkNewCase(input);
    if (key !== undefined) {
      const earlier = await this.#replay(key, checked, linkBase);
      if (earlier !== null) return earlier;
    }
    const clock = this.#clock();
    const { record, links, tokens } = await createCase(checked, linkBase, clock);
    const request =
      key === undefined
        ? undefined
        : createRequest(key, checked as unknown as PyValue, record.shared.id, tokens, clock);
    if (!(await this.#store.insert(record, expiresAt(record), request))) {
      // Another try of this key stored its case first: answer with that one.
      const earlier = await this.#replay(key as string, checked, linkBase);
      if (earlier !== null) return earlier;
      throw new CaseError('conflict', 'the case of this Idempotency-Key was just deleted');
    }
    const names = Object.fromEntries(record.shared.parties.map((p) => [p.id, p.name]));
    for (const [party, link] of Object.entries(links.parties)) {
      await this.#send({
        to: names[party] ?? party,
        subject: `Parley: ${record.shared.title}`,
        text: 'You are invited to decide something together.',
        link,
      });
    }
    return { caseId: record.shared.id, links, names, replayed: false };
  }

  /** The earlier answer to a create with this key, or null when the key made no case yet. */
  async #replay(
    key: string,
    checked: CheckedCase,
    linkBase: string,
  ): Promise<{
    caseId: string;
    links: IssuedLinks;
    names: Record<string, string>;
    replayed: boolean;
  } | null> {
    const earlier = await this.#store.requestOf(requestKeyHash(key));
    if (earlier === null) return null;
    if (earlier.bodyHash !== requestBodyHash(checked as unknown as PyValue)) {
      throw new CaseError(
        'key_reused',
        'this Idempotency-Key already opened a different case; use a new key for a new case',
      );
    }
    const record = await this.#store.load(earlier.caseId);
    if (record === null) return null;
    const tokens = openRequestTokens(key, earlier.caseId, earlier.sealedTokens);
    return {
      caseId: earlier.caseId,
      links: {
        organizer: linkUrl(linkBase, tokens.organizer),
        // In the parties' order, as the first answer listed them.
        parties: Object.fromEntries(
          record.shared.parties.map((p) => [
            p.id,
            linkUrl(linkBase, tokens.parties[p.id] as string),
          ]),
        ),
      },
      names: Object.fromEntries(record.shared.parties.map((p) => [p.id, p.name])),
      replayed: true,
    };
  }

  /** Refuses a link that opens nothing, is revoked or expired (before reading a large body). */
  async authorize(token: string): Promise<void> {
    await this.#open(token);
  }

  /** What the link's holder sees. */
  async view(token: string): Promise<PyValue> {
    const { record, holder } = await this.#open(token);
    return holder.kind === 'organizer'
      ? organizerView(record, tokenOfLink(token) ?? token, this.#now())
      : partyView(record, holder.party);
  }

  async answer(token: string, promptId: string, text: unknown): Promise<PyValue> {
    return this.#partyStep(token, (r, party, clock) =>
      answerPrompt(r, party, promptId, text, clock),
    );
  }

  /**
   * Asks the elicitor for a draft from the party's own answers (outside any transaction: a
   * model may take seconds), then keeps it unless the answers changed meanwhile.
   */
  async draft(token: string, signal?: AbortSignal): Promise<PyValue> {
    const { record, holder } = await this.#open(token);
    const party = requireParty(holder);
    const elicitor = this.#elicitor;
    if (elicitor === undefined) {
      throw new CaseError(
        'wrong_state',
        'no model drafts on this server; write your rules by hand',
      );
    }
    const own = privateOf(record, party);
    if (Object.keys(own.interview.answers).length === 0) {
      throw new CaseError('bad_input', 'answer at least one question first');
    }
    const catalog = attributeCatalog(record.shared.options);
    const reply = await elicitor.elicit(
      { answers: { ...own.interview.answers }, attributes: summarizeAttributes(catalog) },
      signal === undefined ? {} : { signal },
    );
    const clock = this.#clock();
    const draft = guardElicit(() =>
      draftFromReply(reply, {
        base: { ...own.interview, interviewId: own.interview.id },
        catalog,
        random: clock.random,
      }),
    );
    return this.#partyStep(token, (r, p, c) => keepDraft(r, p, draft, c));
  }

  async edit(token: string, ops: unknown): Promise<PyValue> {
    return this.#partyStep(token, (r, party, clock) => editDraft(r, party, ops, clock));
  }

  async confirm(
    token: string,
    confirmation: { hard: unknown; version: unknown },
  ): Promise<PyValue> {
    return this.#partyStep(token, (r, party, clock) =>
      confirmOwnSheet(r, party, confirmation, clock),
    );
  }

  async accept(token: string, proposalHash: unknown): Promise<PyValue> {
    return this.#partyStep(token, (r, party, clock) =>
      acceptProposal(r, party, proposalHash, clock),
    );
  }

  async reject(token: string, proposalHash: unknown, note: unknown): Promise<PyValue> {
    return this.#partyStep(token, (r, party, clock) =>
      rejectProposal(r, party, proposalHash, note, clock),
    );
  }

  async revise(token: string): Promise<PyValue> {
    return this.#partyStep(token, (r, party, clock) => reviseOwnSheet(r, party, clock));
  }

  async addEvidence(
    token: string,
    file: { filename: unknown; bytes: Uint8Array },
  ): Promise<{ id: string; view: PyValue }> {
    let id = '';
    const view = await this.#partyStep(token, (r, party, clock) => {
      const added = addEvidence(r, party, file, clock);
      id = added.id;
      return added.record;
    });
    return { id, view };
  }

  async shareEvidence(
    token: string,
    id: unknown,
    share: boolean,
    confirm: unknown,
  ): Promise<PyValue> {
    return this.#partyStep(token, (r, party, clock) =>
      shareEvidence(r, party, id, share, confirm, clock),
    );
  }

  /** A file the holder may read: their own, or one disclosed to them. */
  async readEvidence(token: string, id: unknown): Promise<EvidenceItem> {
    const { record, holder } = await this.#open(token);
    return readEvidence(record, requireParty(holder), id);
  }

  /** The receipt file's text, for any holder of the case, once the case is finished. */
  async receipt(token: string): Promise<{ title: string; text: string }> {
    const { record } = await this.#open(token);
    if (record.shared.receipt === null)
      throw new CaseError('wrong_state', 'there is no receipt yet');
    return { title: record.shared.title, text: record.shared.receipt };
  }

  /** The organizer re-issues a party's link; the earlier one stops opening. */
  async reissue(token: string, party: string, linkBase: string): Promise<{ link: string }> {
    let link = '';
    await this.#organizerStep(token, (r, clock) => {
      const out = reissueLink(r, party, tokenOfLink(token) ?? token, linkBase, clock);
      link = out.link;
      return out.record;
    });
    return { link };
  }

  async revoke(token: string, party: string): Promise<PyValue> {
    return this.#organizerStep(token, (r, clock) => revokeLinks(r, party, clock));
  }

  async close(token: string): Promise<PyValue> {
    return this.#organizerStep(token, (r, clock) => closeCase(r, clock));
  }

  async cancel(token: string): Promise<PyValue> {
    return this.#organizerStep(token, (r, clock) => cancelCase(r, clock));
  }

  /** The organizer deletes the case: every row of it, its data key included. */
  async deleteByOrganizer(token: string): Promise<void> {
    const { record, holder } = await this.#open(token);
    requireOrganizer(holder);
    await this.#store.delete(record.shared.id);
  }

  /** Deletes a case by id (the server's own `parley cases delete`). */
  async delete(caseId: string): Promise<boolean> {
    return this.#store.delete(caseId);
  }

  /** Deletes every case whose retention has ended; their ids. */
  async sweep(): Promise<string[]> {
    const ids = await this.#store.expired(this.#now());
    for (const id of ids) await this.#store.delete(id);
    return ids;
  }

  /** The case by id, for the server's own CLI (`parley cases status`). */
  async load(caseId: string): Promise<CaseRecord | null> {
    return this.#store.load(caseId);
  }

  async #open(token: string): Promise<{ record: CaseRecord; holder: Holder }> {
    const bare = typeof token === 'string' ? tokenOfLink(token) : null;
    if (bare === null || !TOKEN_PATTERN.test(bare))
      throw new CaseError('not_found', 'this link opens nothing');
    const caseId = await this.#store.caseOfLink(hashToken(bare));
    const record = caseId === null ? null : await this.#store.load(caseId);
    if (record === null) throw new CaseError('not_found', 'this link opens nothing');
    return { record, holder: authenticate(record, bare, this.#now()) };
  }

  async #partyStep(
    token: string,
    run: (record: CaseRecord, party: string, clock: Clock) => CaseRecord | Promise<CaseRecord>,
  ): Promise<PyValue> {
    const { record, party } = await this.#apply(token, (r, holder, clock) =>
      run(r, requireParty(holder), clock),
    );
    return partyView(record, party as string);
  }

  async #organizerStep(
    token: string,
    run: (record: CaseRecord, clock: Clock) => CaseRecord | Promise<CaseRecord>,
  ): Promise<PyValue> {
    const { record } = await this.#apply(token, (r, holder, clock) => {
      requireOrganizer(holder);
      return run(r, clock);
    });
    return organizerView(record, tokenOfLink(token) ?? token, this.#now());
  }

  async #apply(
    token: string,
    run: (record: CaseRecord, holder: Holder, clock: Clock) => CaseRecord | Promise<CaseRecord>,
  ): Promise<{ record: CaseRecord; party: string | null }> {
    for (let attempt = 0; attempt < this.#attempts; attempt++) {
      const { record, holder } = await this.#open(token);
      const next = await run(record, holder, this.#clock());
      const party = holder.kind === 'party' ? holder.party : null;
      if (next === record) return { record, party };
      if (await this.#store.save(next, record.shared.version, expiresAt(next))) {
        await this.#deliver(record, next, token);
        return { record: next, party };
      }
    }
    throw new CaseError('conflict', 'the case kept changing under this step; try again');
  }

  #clock(): Clock {
    return { now: this.#now(), random: this.#random };
  }

  /**
   * Hands the messages a saved step added to the mail sender: title and action only (module
   * 10); a sealed link opens only with the organizer's token, so only the organizer's own steps
   * (a re-issued link) send one.
   */
  async #deliver(before: CaseRecord, after: CaseRecord, token: string): Promise<void> {
    if (this.#mail === undefined) return;
    const known = new Set(before.shared.outbox.map((m) => m.id));
    const bare = tokenOfLink(token) ?? token;
    for (const m of after.shared.outbox) {
      if (known.has(m.id)) continue;
      await this.#send({
        to: after.shared.parties.find((p) => p.id === m.to)?.name ?? m.to,
        subject: m.subject,
        text: m.text,
        link: m.sealed_link === null ? null : openLink(bare, after.shared.id, m.sealed_link),
      });
    }
  }

  async #send(message: OutgoingMessage): Promise<void> {
    if (this.#mail === undefined) return;
    try {
      await this.#mail.send(message);
    } catch {
      // Module 10: a failed delivery never blocks the case; the outbox still shows the link.
    }
  }
}
