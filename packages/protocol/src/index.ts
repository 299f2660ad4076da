export { decodeB64url, encodeB64url } from './b64url.js';
export {
  type Elision,
  type IssueHandle,
  type ItemsRemainder,
  LIST_ROOTS,
  type ListRoot,
  type Remainder,
  type TextRemainder,
} from './budget/elision.js';
export { estimateTokens } from './budget/estimate-tokens.js';
export { ELLIPSIS } from './budget/fit-body.js';
export { type FitResult, type Fitted, fitReply } from './budget/fit-reply.js';
export { type SliceResult, sliceRemainder } from './budget/slice-remainder.js';
export {
  canonicalize,
  compareCodePoints,
  MAX_CANONICAL_INTEGER,
  quoteCanonical,
} from './canonical.js';
export {
  type ConsentRequest,
  type ConsentScreen,
  consentLines,
  renderConsent,
} from './consent/render-consent.js';
export { roughDuration } from './consent/rough-duration.js';
export {
  escapeIdentifier,
  escapeServiceText,
  isPlainIdentifier,
  MAX_COMBINING_MARKS,
  MAX_SHOWN_CHARACTERS,
} from './consent/service-text.js';
export { cryptoPort, setCryptoPort } from './crypto/backend.js';
export { CryptoUnavailableError } from './crypto/crypto-unavailable-error.js';
export type { CryptoPort } from './crypto/port.js';
export { randomBytes } from './crypto/port.js';
export { EncodingError } from './encoding-error.js';
export {
  type Consent,
  ERROR_CODES,
  type ErrorBody,
  type ErrorCode,
  type Fix,
  isErrorCode,
  ParleyError,
  type ParleyErrorOptions,
  type Revoked,
} from './errors.js';
export {
  announcedReceiptKey,
  EXTENSION_NAMES,
  type ExtensionName,
  type Extensions,
  type SignedReceiptsAnnouncement,
} from './extensions/announce.js';
export {
  APPROVALS_CAVEAT,
  type Approvals,
  countApprovals,
  isApprovalsCaveat,
  MAX_APPROVERS,
  readApprovals,
} from './extensions/approvals.js';
export {
  AUDIT_EMPTY_HEAD,
  AUDIT_GENESIS,
  AUDIT_KINDS,
  type AuditEntry,
  type AuditHead,
  type AuditKind,
  type AuditLink,
  type AuditProblem,
  type AuditRow,
  type AuditVerdict,
  chainAuditRow,
  hashAuditRow,
  verifyAuditChain,
} from './extensions/audit-trail.js';
export {
  type ReceiptSignatureCheck,
  receiptSigningText,
  signReceipt,
  verifyReceiptSignature,
} from './extensions/receipt-signature.js';
export {
  checkRevocation,
  grantRevocationTargets,
  REVOKE_VERB,
  type Revocation,
  type RevocationCheck,
  type RevocationPayload,
  type RevocationTarget,
  type RevokeRequest,
  revocationTargetId,
  revocationTargetsOf,
  signRevocation,
} from './extensions/revocation.js';
export { keepEnvelopeJson, keepJson, stringifyFrame } from './frame-json.js';
export {
  type AnswerBody,
  type AnswerReply,
  type AskRequest,
  type BriefBody,
  type BriefReply,
  type Capability,
  type ClarifyBody,
  type ClarifyOption,
  type ClarifyReply,
  type CommitRequest,
  DEFAULT_BUDGET,
  EFFECT_OPS,
  type Effect,
  type EffectOp,
  type ErrorReply,
  type ErrorReplyBody,
  type EventBody,
  type EventReply,
  type ExpandRequest,
  type FinalReply,
  type FinalReplyBody,
  type Frame,
  type HelloRequest,
  type IntentRequest,
  MAX_FRAME_BYTES,
  type Money,
  type More,
  PARLEY_VERSION,
  type ParamSchema,
  type ParamType,
  type Proof,
  type Proposal,
  type ProposalsBody,
  type ProposalsReply,
  REPLY_KINDS,
  type Receipt,
  type ReceiptBody,
  type ReceiptReply,
  type ReceiptSignature,
  type Reply,
  type ReplyBody,
  type ReplyEnvelope,
  type ReplyKind,
  type Request,
  type RequestBase,
  RISK_LEVELS,
  type Risk,
  type ServiceInfo,
  type UndoRequest,
  VERBS,
  type Verb,
} from './frames.js';
export {
  assertWellFormedCaveats,
  type CaveatContext,
  type CaveatOutcome,
  evaluateCaveat,
  matchesCapability,
  readCaveat,
  type WellFormedCaveat,
} from './grants/caveats.js';
export {
  ChainCache,
  type VerifiedChain,
} from './grants/chain-cache.js';
export { GrantIssueError } from './grants/grant-issue-error.js';
export { consentGrant, delegateGrant, type IssueOptions, issueGrant } from './grants/issue.js';
export {
  blockId,
  decodeGrant,
  encodeGrant,
  GRANT_PREFIX,
  GrantFormatError,
  grantHolder,
  grantId,
  grantPrincipal,
  MAX_GRANT_BLOCKS,
  MAX_GRANT_TOKEN_LENGTH,
} from './grants/token.js';
export {
  type Block,
  CAVEAT_NAMES,
  type Caveat,
  type CaveatName,
  type DelegationPayload,
  type Grant,
  type Limit,
  type RootPayload,
} from './grants/types.js';
export {
  type GrantContext,
  type GrantFailure,
  type GrantFailureCode,
  type GrantVerdict,
  moreActionable,
  type SpendLimit,
  verifyAnyGrant,
  verifyGrant,
  verifyGrantChain,
} from './grants/verify.js';
export { type HashedProposal, hashProposal } from './hash.js';
export { ID_RULE, isWellFormedId, MAX_ID_LENGTH } from './ids.js';
export {
  hasOwn,
  isPlainObject,
  type JsonObject,
  type JsonScalar,
  type JsonValue,
  ownValue,
  setOwn,
} from './json.js';
export {
  generateKeyPair,
  isPublicKey,
  KEY_PREFIX,
  type KeyPair,
  keyPairFromSeed,
  parsePublicKey,
  publicKeyString,
  sha256,
  sha256Pieces,
  sign,
  utf8,
  verify,
  verifyNow,
} from './keys.js';
export { EFFECT_SYMBOLS, renderEffect } from './lens/effect.js';
export { renderValue } from './lens/lean.js';
export { renderMoney, ZERO_DECIMAL_CURRENCIES } from './lens/money.js';
export { renderMore } from './lens/more.js';
export { renderParams } from './lens/params.js';
export { estimateLens, renderLens } from './lens/render-lens.js';
export { renderScalar } from './lens/scalar.js';
export { renderDuration, renderTime } from './lens/time.js';
export { mergePatch } from './merge-patch.js';
export {
  holdsMoreContainersThan,
  MAX_FRAME_CONTAINERS,
  MAX_NESTING_DEPTH,
  nestsDeeperThan,
} from './nesting.js';
export { checkRequest, MAX_GRANTS, parseFrame, requestIdOf } from './parse-frame.js';
export {
  PROOF_MAX_SKEW_SECONDS,
  type ProofCheck,
  type ProofInput,
  proofMessage,
  proofTarget,
  signProof,
  verifyProof,
} from './proof.js';
export { type UndoLine, undoOutcome } from './undo-outcome.js';
