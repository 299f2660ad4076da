import type {
  ClarifyOption,
  Effect,
  JsonObject,
  JsonScalar,
  JsonValue,
  Money,
  ParamSchema,
  Proposal,
  Receipt,
  Risk,
} from '@parley/protocol';
import type { ParsedField } from './params/schema.js';
import type { DataAccess } from './store/store.js';

/** Who is asking, as far as the service could verify (§4.4, §6.4). */
export type Requester = {
  /** The key of a verified proof on the request, or null. */
  holder: string | null;
  /** The principal of the grant that authorized the request, or null. */
  principal: string | null;
};

/**
 * What an ASK handler gets (§4.2). `data` is the service's own data, read-only by contract;
 * `progress` becomes an EVENT frame before the answer (§2.2), for a read that takes a while.
 */
export type AskContext = Requester & {
  now: number;
  data: DataAccess;
  progress(message: string, fraction?: number): void;
};

/** What a plan gets (§4.3). Plans must not change principal-observable state. */
export type PlanContext = Requester & { now: number; data: DataAccess; goal: string | undefined };

/** A proposal as a plan writes it; the service adds id, capability, expiry and hash (§5.1). */
export type ProposalDraft = {
  summary: string;
  /** Every principal-observable change the commit will cause (§5.1). */
  effects: Effect[];
  cost?: Money | null;
  /** Defaults to the capability's risk, else `low`. */
  risk?: Risk;
  /** Seconds the receipt can be undone; needs the capability's `revert`. Default: not undoable. */
  undoWindow?: number | null;
  /** Seconds until the proposal can no longer be committed; default the service's proposal TTL. */
  expiresIn?: number;
  /** Extra detail for the agent; not hashed and must not describe effects (§5.1). */
  data?: JsonValue;
  /** What `apply` will do, as JSON: kept with the proposal so any instance can commit it. */
  action: JsonValue;
};

/** §4.3: the intent is ambiguous; each option's params patch resolves it. */
export type Clarification = { kind: 'clarify'; question: string; options: ClarifyOption[] };

/** A CLARIFY answer for a plan to return. */
export function clarify(question: string, options: ClarifyOption[]): Clarification {
  return { kind: 'clarify', question, options };
}

/** What a plan returns: one or more proposals, or a question. */
export type PlanResult = ProposalDraft[] | Clarification;

/** What `apply` and `revert` get. `progress` becomes an EVENT frame before the final reply. */
export type ApplyContext = Requester & {
  now: number;
  /** In a transactional capability, writes here commit with the receipt or not at all. */
  data: DataAccess;
  proposal: Proposal;
  progress(message: string, fraction?: number): void;
};

export type RevertContext = ApplyContext & { receipt: Receipt };

/** What a revert may report: the effects it reversed (default: the commit's reversible ones). */
export type RevertOutcome = { effects?: Effect[]; result?: JsonValue };

export type AskDefinition = {
  summary?: string;
  params?: ParamSchema;
  /** Whether this read requires a grant even when the service does not require them for reads. */
  requireGrant?: boolean;
  run(params: JsonObject, ctx: AskContext): JsonValue | Promise<JsonValue>;
};

export type IntentDefinition = {
  summary?: string;
  params?: ParamSchema;
  /** Shown in the BRIEF (§4.1) and the default risk of its proposals. */
  risk?: Risk;
  /**
   * The highest risk an `auto` INTENT may commit in one round trip (§4.3.1); a riskier first
   * proposal is answered as without auto even when a grant would authorize it outright. A
   * stricter policy than the spec's, for capabilities whose risk is a guess (an OpenAPI
   * document's writes). Default `high`: the grant alone decides, as §4.3.1 says.
   */
  autoCommitMaxRisk?: Risk;
  plan(params: JsonObject, ctx: PlanContext): PlanResult | Promise<PlanResult>;
  /**
   * Performs a committed proposal's action; returns the receipt's `result`. The action and
   * `ctx.proposal` are what the person approved (the hash binds them, §4.4): a store may hand
   * them out frozen, so build changed copies (`{ ...action, status }`), never change them.
   */
  apply(
    action: JsonValue,
    ctx: ApplyContext,
  ): JsonValue | undefined | Promise<JsonValue | undefined>;
  /** Reverses an applied action; having it makes proposals with an undo window undoable. */
  revert?(
    action: JsonValue,
    ctx: RevertContext,
  ): RevertOutcome | undefined | Promise<RevertOutcome | undefined>;
  /**
   * True when apply and revert change nothing but `ctx.data`: they then run inside the commit's
   * transaction, so a crash leaves the commit done once or not at all. Otherwise a crash during
   * apply leaves the commit in doubt, and it is never executed a second time.
   */
  transactional?: boolean;
  /**
   * §5.1: how to read the value an `update` effect changes, so the service holds the world to
   * what was approved. With it, COMMIT reads every update effect that declares a `from` before
   * `apply` runs (inside the commit's transaction when transactional) and answers `conflict` if
   * the value has moved since the proposal was made; after a transactional apply every update
   * must read its declared `to`, or the commit is rolled back. A transactional UNDO is held to
   * its reversal the same way: each update's `from` must be the value before `revert` ran (the
   * default reversal declares the commit's `to`), each `to` the value after. `'data'` reads
   * `field` of the JSON object stored under the key `target` in ctx.data (`item/des-22b`,
   * `stock`).
   */
  current?: 'data' | CurrentValue;
};

/** Reads the value an update effect's `field` of `target` has now (undefined: none). */
export type CurrentValue = (
  effect: Effect,
  data: DataAccess,
) => JsonScalar | undefined | Promise<JsonScalar | undefined>;

/** A registered capability with its parsed schema. */
export type CapabilityEntry =
  | { kind: 'ask'; name: string; definition: AskDefinition; fields: ParsedField[] }
  | { kind: 'intent'; name: string; definition: IntentDefinition; fields: ParsedField[] };
