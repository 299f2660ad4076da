import {
  newId,
  type PyObject,
  type PyValue,
  publicKeyHex,
  startInterview,
} from '@parley/consensus';
import { keyPairFromSeed } from '@parley/protocol';
import type { CreatedTokens } from './create-request.js';
import { CaseError } from './errors.js';
import { toHex } from './hex.js';
import {
  LINK_TTL_SECONDS,
  MAX_DECISION_CHARS,
  MAX_NAME_CHARS,
  MAX_PARTIES,
  MAX_TITLE_CHARS,
  MIN_PARTIES,
} from './limits.js';
import { type IssuedLinks, linkUrl } from './link-url.js';
import { mintLink, sealLink } from './links.js';
import { readCaseOptions } from './options.js';
import { outboxMessage } from './outbox.js';
import type { CaseRecord, Clock, Link, OutboxMessage, Party, PartyPrivate } from './record.js';

/** What the initiator says to open a case. */
export interface NewCase {
  readonly title: unknown;
  readonly decision: unknown;
  /** A list of option objects, or `{"attributes": {...}}` (module 05). */
  readonly options: PyValue | undefined;
  /** The initiator's name. */
  readonly organizer: unknown;
  /** 2-5 party names. */
  readonly parties: unknown;
}

/** A new case and the links minted for it; the tokens exist only in this value. */
export interface CreatedCase {
  readonly record: CaseRecord;
  readonly links: IssuedLinks;
  /** The same links' bare tokens (a keyed create keeps them sealed under its key). */
  readonly tokens: CreatedTokens;
}

/** A NewCase checked and trimmed: what a retry must repeat to be the same create. */
export interface CheckedCase {
  readonly title: string;
  readonly decision: string;
  readonly options: PyObject[];
  readonly organizer: string;
  readonly parties: string[];
}

/** Checks what the initiator wrote; one sentence naming what is wrong. */
export function checkNewCase(input: NewCase): CheckedCase {
  return {
    title: readText(input.title, 'title', MAX_TITLE_CHARS),
    decision: readText(input.decision, 'decision', MAX_DECISION_CHARS),
    organizer: readText(input.organizer, "the initiator's name", MAX_NAME_CHARS),
    options: readCaseOptions(input.options),
    parties: readNames(input.parties),
  };
}

/**
 * Opens a case in `eliciting`: the options checked, each party given a private link (256-bit
 * token, kept hashed, expiring after LINK_TTL_SECONDS), an interview and a signing key, and the
 * invitations put in the outbox. `linkBase` is where the pages are (`http://host/cases/`).
 */
export async function createCase(
  input: NewCase,
  linkBase: string,
  clock: Clock,
): Promise<CreatedCase> {
  const { title, decision, organizer, options, parties: names } = checkNewCase(input);
  const id = newId('case', clock.random);
  const organizerLink = mintLink(clock);
  const links: Link[] = [linkOf('organizer', organizerLink.hash, clock)];
  const parties: Party[] = [];
  const privates: Record<string, PartyPrivate> = {};
  const outbox: OutboxMessage[] = [];
  const partyTokens: Record<string, string> = {};
  for (const name of names) {
    const partyId = newId('pt', clock.random);
    const seed = clock.random(32);
    const key = await keyPairFromSeed(seed);
    const link = mintLink(clock);
    links.push(linkOf(partyId, link.hash, clock));
    partyTokens[partyId] = link.token;
    parties.push({
      id: partyId,
      name,
      sheet: 'none',
      answer: 'none',
      pubkey_hex: publicKeyHex(key),
    });
    privates[partyId] = {
      party: partyId,
      interview: startInterview({ caseId: id, participant: name }, clock.random),
      draft: null,
      sheet: null,
      key_seed: toHex(seed),
      notes: [],
      evidence: [],
    };
    const message = outboxMessage(
      { title, outbox },
      {
        to: partyId,
        kind: 'invite',
        dedupe: `invite:${link.hash}`,
        sealedLink: sealLink(organizerLink.token, id, linkUrl(linkBase, link.token), clock),
      },
      clock,
    );
    if (message !== null) outbox.push(message);
  }
  const record: CaseRecord = {
    shared: {
      id,
      title,
      decision,
      options,
      organizer,
      parties,
      links,
      state: 'eliciting',
      round: 1,
      proposal: null,
      acceptances: [],
      disclosed: [],
      receipt: null,
      outbox,
      events: [{ at: clock.now, actor: 'organizer', type: 'created', prior_version: 0 }],
      created_at: clock.now,
      updated_at: clock.now,
      version: 1,
    },
    privates,
  };
  return {
    record,
    links: {
      organizer: linkUrl(linkBase, organizerLink.token),
      parties: Object.fromEntries(
        parties.map((p) => [p.id, linkUrl(linkBase, partyTokens[p.id] as string)]),
      ),
    },
    tokens: { organizer: organizerLink.token, parties: partyTokens },
  };
}

/** A live link record for `holder`. */
export function linkOf(holder: string, hash: string, clock: Clock): Link {
  return {
    holder,
    hash,
    issued_at: clock.now,
    expires_at: clock.now + LINK_TTL_SECONDS,
    revoked: false,
  };
}

function readText(value: unknown, what: string, max: number): string {
  if (typeof value !== 'string' || value.trim() === '') {
    throw new CaseError('bad_input', `the ${what} is missing`);
  }
  const text = value.trim();
  if (text.length > max)
    throw new CaseError('bad_input', `the ${what} is longer than ${max} characters`);
  return text;
}

function readNames(value: unknown): string[] {
  if (!Array.isArray(value) || value.length < MIN_PARTIES || value.length > MAX_PARTIES) {
    throw new CaseError(
      'bad_input',
      `a case needs ${MIN_PARTIES} to ${MAX_PARTIES} parties by name`,
    );
  }
  const names = value.map((v) => readText(v, 'party name', MAX_NAME_CHARS));
  const folded = new Set(names.map((n) => n.toLowerCase()));
  if (folded.size !== names.length)
    throw new CaseError('bad_input', 'two parties have the same name');
  return names;
}
