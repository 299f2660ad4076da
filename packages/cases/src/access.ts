import { linkOf } from './create-case.js';
import { CaseError } from './errors.js';
import { linkUrl } from './link-url.js';
import { hashToken, mintLink, sameHash, sealLink } from './links.js';
import { outboxMessage } from './outbox.js';
import type { CaseRecord, Clock } from './record.js';
import { requireState, step } from './step.js';

/** Who a link opens the case for: a party (by id) or the organizer. */
export type Holder =
  | { readonly kind: 'organizer' }
  | { readonly kind: 'party'; readonly party: string };

/**
 * Who `token` opens this case for, or the refusal: unknown (not_found), revoked, expired. A
 * link opens one case for one holder; nothing in it names which.
 */
export function authenticate(record: CaseRecord, token: string, now: number): Holder {
  const hash = hashToken(token);
  const link = record.shared.links.find((l) => sameHash(l.hash, hash));
  if (link === undefined) throw new CaseError('not_found', 'this link opens nothing');
  if (link.revoked)
    throw new CaseError('revoked', 'this link was revoked; ask the initiator for a new one');
  if (now >= link.expires_at) {
    throw new CaseError('expired', 'this link has expired; ask the initiator for a new one');
  }
  return link.holder === 'organizer'
    ? { kind: 'organizer' }
    : { kind: 'party', party: link.holder };
}

/** The party a link opens for, refusing the organizer's link. */
export function requireParty(holder: Holder): string {
  if (holder.kind !== 'party')
    throw new CaseError('forbidden', "this is the initiator's link, not a party's");
  return holder.party;
}

/** Refuses a party's link where the organizer's is needed. */
export function requireOrganizer(holder: Holder): void {
  if (holder.kind !== 'organizer')
    throw new CaseError('forbidden', 'only the initiator may do this');
}

/**
 * A new link for `party`, revoking every earlier one of theirs (module 02: re-issuing revokes
 * the previous token); the new link goes to the outbox sealed for the organizer.
 */
export function reissueLink(
  record: CaseRecord,
  party: string,
  organizerToken: string,
  linkBase: string,
  clock: Clock,
): { record: CaseRecord; link: string } {
  requireState(
    record,
    ['eliciting', 'ratifying', 'revising', 'agreed', 'rejected', 'deadlocked'],
    're-issue a link',
  );
  requireKnownParty(record, party);
  const minted = mintLink(clock);
  const url = linkUrl(linkBase, minted.token);
  const message = outboxMessage(
    record.shared,
    {
      to: party,
      kind: 'invite',
      dedupe: `invite:${minted.hash}`,
      sealedLink: sealLink(organizerToken, record.shared.id, url, clock),
    },
    clock,
  );
  const links = record.shared.links.map((l) => (l.holder === party ? { ...l, revoked: true } : l));
  return {
    record: step(
      record,
      { actor: 'organizer', type: 'link_reissued', clock },
      {
        links: [...links, linkOf(party, minted.hash, clock)],
        outbox: message === null ? record.shared.outbox : [...record.shared.outbox, message],
      },
    ),
    link: url,
  };
}

/** Revokes every link of `party` (module 02 `revoke_participant`: the link stops opening). */
export function revokeLinks(record: CaseRecord, party: string, clock: Clock): CaseRecord {
  requireKnownParty(record, party);
  if (!record.shared.links.some((l) => l.holder === party && !l.revoked)) return record;
  return step(
    record,
    { actor: 'organizer', type: 'link_revoked', clock },
    { links: record.shared.links.map((l) => (l.holder === party ? { ...l, revoked: true } : l)) },
  );
}

function requireKnownParty(record: CaseRecord, party: string): void {
  if (!record.shared.parties.some((p) => p.id === party)) {
    throw new CaseError('not_found', 'no such party in this case');
  }
}
