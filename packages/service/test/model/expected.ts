import type { Consent, ErrorCode, FinalReplyBody, Proposal, Receipt } from '@parley/protocol';

/**
 * What the reference model predicts for one request: the reply kind and the fields that matter.
 * Ids the service draws at random (proposal and receipt ids) are not predicted; the model learns
 * them from the reply once everything else matched.
 */
export type Expected =
  /** §4.3: proposals in this order; view-only ones (§4.4) can never be committed. */
  | { kind: 'PROPOSALS'; proposals: Omit<Proposal, 'id' | 'hash'>[]; viewOnly: boolean }
  /** §4.4, §4.3.1: a new receipt, all of it but its id and result (and, auto, its proposal). */
  | {
      kind: 'RECEIPT';
      fresh: Omit<Receipt, 'id' | 'result' | 'proposal'> & { proposal?: string };
      auto: boolean;
    }
  /** §4.4, §4.5, §4.3.1: a receipt seen before, identical, with `replay: true`. */
  | {
      kind: 'REPLAY';
      receipt: Receipt;
      auto: boolean;
      /** The reversal that undid it since, on a replayed commit (service README, §4.5). */
      undone?: { receipt: string; at: number };
    }
  /** §4.5: a new reversal receipt. */
  | { kind: 'UNDONE'; undoes: string; at: number; proposal: string }
  /**
   * §7; `consent` for consent_required (§6.6). `or` names a second code the spec allows just as
   * well, where which one a service gives depends on which instance answers.
   */
  | { kind: 'ERROR'; code: ErrorCode; or?: ErrorCode; consent?: Consent }
  /** §4.3.1: a repeat of an auto frame gets the original reply, byte for byte. */
  | { kind: 'SAME'; body: FinalReplyBody };
