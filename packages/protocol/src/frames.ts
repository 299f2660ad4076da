import type { ErrorBody } from './errors.js';
import type { Extensions } from './extensions/announce.js';
import type { JsonObject, JsonScalar, JsonValue } from './json.js';

/** §2.1: the wire version. */
export const PARLEY_VERSION = 1;
/** §2.1: the largest frame, serialized. */
export const MAX_FRAME_BYTES = 1_048_576;
/** §3: the budget when a request names none. */
export const DEFAULT_BUDGET = 2000;

/** §4: the verbs. */
export const VERBS = ['HELLO', 'ASK', 'INTENT', 'COMMIT', 'UNDO', 'EXPAND'] as const;
export type Verb = (typeof VERBS)[number];

/** §5: the reply kinds; EVENT is the only non-final one. */
export const REPLY_KINDS = [
  'BRIEF',
  'ANSWER',
  'PROPOSALS',
  'CLARIFY',
  'RECEIPT',
  'ERROR',
  'EVENT',
] as const;
export type ReplyKind = (typeof REPLY_KINDS)[number];

/** §5.1: risk levels, in increasing order. */
export const RISK_LEVELS = ['low', 'medium', 'high'] as const;
export type Risk = (typeof RISK_LEVELS)[number];

/** §5.1: effect operations. */
export const EFFECT_OPS = ['create', 'update', 'delete', 'send', 'charge', 'other'] as const;
export type EffectOp = (typeof EFFECT_OPS)[number];

/** §6.5: proof of possession. */
export type Proof = {
  key: string;
  ts: number;
  sig: string;
};

/** §3: fields common to every request. */
export type RequestBase = {
  parley: 1;
  id: string;
  verb: Verb;
  budget?: number;
  grants?: string[];
  proof?: Proof;
};

export type HelloRequest = RequestBase & {
  verb: 'HELLO';
  agent?: { name?: string; key?: string };
};
export type AskRequest = RequestBase & {
  verb: 'ASK';
  capability: string;
  params?: JsonObject;
};
export type IntentRequest = RequestBase & {
  verb: 'INTENT';
  capability: string;
  params?: JsonObject;
  goal?: string;
  auto?: boolean;
};
export type CommitRequest = RequestBase & {
  verb: 'COMMIT';
  proposal: string;
  hash: string;
};
export type UndoRequest = RequestBase & {
  verb: 'UNDO';
  receipt: string;
};
export type ExpandRequest = RequestBase & {
  verb: 'EXPAND';
  handle: string;
};
export type Request =
  | HelloRequest
  | AskRequest
  | IntentRequest
  | CommitRequest
  | UndoRequest
  | ExpandRequest;

/** §5.1: money in minor units. */
export type Money = {
  amount: number;
  currency: string;
};

/** §5.1: one principal-observable change. `from` and `to` are scalars. */
export type Effect = {
  op: EffectOp;
  target: string;
  field?: string;
  from?: JsonScalar;
  to?: JsonScalar;
  detail?: string;
};

/** §5.1: a concrete, inert plan. */
export type Proposal = {
  id: string;
  capability: string;
  summary: string;
  effects: Effect[];
  cost: Money | null;
  risk: Risk;
  undo: { window: number } | null;
  expires: number;
  hash: string;
  data?: JsonValue;
};

/**
 * docs/extensions.md §E1: a RECEIPT's signature by its service. `by` is the service id (§4.1),
 * `key` the service's receipt key, `sig` the Ed25519 signature (§6.1) of receiptSigningText.
 */
export type ReceiptSignature = { by: string; key: string; sig: string };

/** §5.2: proof that a proposal was executed (or, with `undoes`, reversed). */
export type Receipt = {
  id: string;
  proposal: string;
  capability: string;
  summary: string;
  at: number;
  effects: Effect[];
  cost: Money | null;
  undo: { until: number } | null;
  result?: JsonValue;
  undoes?: string;
};

/** §4.1.1: the compact parameter schema. */
export type ParamType = string | ParamSchema | [ParamSchema];
export type ParamSchema = {
  [name: string]: ParamType;
};

/** §4.1: one capability in a BRIEF. */
export type Capability = {
  name: string;
  kind: 'ask' | 'intent';
  summary?: string;
  params?: ParamSchema;
  risk?: Risk;
};

/** §4.1: who the service is. */
export type ServiceInfo = {
  id: string;
  name: string;
  summary?: string;
};

/** §8: an elided remainder that EXPAND can fetch. */
export type More = {
  handle: string;
  path: string;
  remaining: number;
  est: number;
};

/** §4.3: one way to resolve an ambiguous intent. */
export type ClarifyOption = {
  label: string;
  params: JsonObject;
};

/** §5: the body of each reply kind (without the frame envelope). */
export type BriefBody = {
  kind: 'BRIEF';
  service: ServiceInfo;
  capabilities: Capability[];
  more?: More[];
  /** docs/extensions.md: the extensions this service offers; absent for a v1-only service. */
  ext?: Extensions;
};
export type AnswerBody = {
  kind: 'ANSWER';
  data: JsonValue;
  more?: More[];
};
export type ProposalsBody = {
  kind: 'PROPOSALS';
  proposals: Proposal[];
  more?: More[];
};
export type ClarifyBody = {
  kind: 'CLARIFY';
  question: string;
  options: ClarifyOption[];
};
export type ReceiptBody = {
  kind: 'RECEIPT';
  receipt: Receipt;
  auto?: true;
  replay?: true;
  /**
   * On a replayed COMMIT (§4.4) or auto INTENT (§4.3.1) of a receipt that was undone since
   * (§4.5): the reversal receipt and when it was made. An addition of this implementation; other
   * receivers ignore it (§2).
   */
  undone?: ReceiptUndone;
  /** docs/extensions.md §E1: the service's signature, when its BRIEF announced a receipt key. */
  signed?: ReceiptSignature;
};
export type ReceiptUndone = { receipt: string; at: number };
export type ErrorReplyBody = ErrorBody & {
  kind: 'ERROR';
};
export type EventBody = {
  kind: 'EVENT';
  message: string;
  progress?: number;
  data?: JsonValue;
};
export type ReplyBody =
  | BriefBody
  | AnswerBody
  | ProposalsBody
  | ClarifyBody
  | ReceiptBody
  | ErrorReplyBody
  | EventBody;
export type FinalReplyBody = Exclude<ReplyBody, EventBody>;

/** §2.1, §5: the envelope of every reply frame. */
export type ReplyEnvelope = {
  parley: 1;
  id: string;
  re: string;
  lens?: string;
};
export type Reply = ReplyEnvelope & ReplyBody;
export type BriefReply = ReplyEnvelope & BriefBody;
export type AnswerReply = ReplyEnvelope & AnswerBody;
export type ProposalsReply = ReplyEnvelope & ProposalsBody;
export type ClarifyReply = ReplyEnvelope & ClarifyBody;
export type ReceiptReply = ReplyEnvelope & ReceiptBody;
export type ErrorReply = ReplyEnvelope & ErrorReplyBody;
export type EventReply = ReplyEnvelope & EventBody;
export type FinalReply = ReplyEnvelope & FinalReplyBody;

/** Any frame: a request or a reply. */
export type Frame = Request | Reply;
