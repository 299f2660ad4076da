export {
  type ApplyContext,
  type AskContext,
  type AskDefinition,
  type Clarification,
  type CurrentValue,
  clarify,
  type IntentDefinition,
  type PlanContext,
  type PlanResult,
  type ProposalDraft,
  type Requester,
  type RevertContext,
  type RevertOutcome,
} from './capability.js';
export type { HandleContext } from './dispatch/core.js';
export { DraftError } from './dispatch/draft.js';
export { AUTO_REPLAY_SECONDS } from './dispatch/intent.js';
export { type ReadFrame, readFrameText } from './frame-text.js';
export { armKillPoint, KILL_POINTS, type KillPointName } from './kill-point.js';
export { OutcomeUnknownError } from './outcome-unknown.js';
export { dateTimeSeconds, isDate, isDateTime } from './params/dates.js';
export { didYouMean, editDistance, MAX_COMPARED_LENGTH } from './params/did-you-mean.js';
export { type ParsedField, type ParsedType, parseSchema, SchemaError } from './params/schema.js';
export { validateParams } from './params/validate.js';
export { excerpt, MAX_QUOTED_LENGTH, quoteInput } from './quote-input.js';
export {
  RETAINED_HANDLE_CHARS,
  RETAINED_HANDLES,
  UNAUTHENTICATED_POOL,
} from './retained-handles.js';
export {
  DEFAULT_HANDLE_TTL_SECONDS,
  DEFAULT_PROPOSAL_TTL_SECONDS,
  defineService,
  type Resolution,
  Service,
  type ServiceOptions,
} from './service.js';
export type { ServeOptions, ServiceFactory } from './service-factory.js';
export { ServiceUsageError } from './service-usage-error.js';
export {
  abandonEntries,
  chainEntries,
  commitEntries,
  revocationEntry,
  type TextedEntry,
  undoEntries,
} from './store/audit-entries.js';
export { MemoryStore, PROPOSAL_GRACE_SECONDS } from './store/memory-store.js';
export {
  PROPOSAL_CACHE_CHARS,
  PROPOSAL_CACHE_SIZE,
  ProposalCache,
} from './store/proposal-cache.js';
export {
  SQLITE_FILE_NAME,
  SqliteStore,
  type SqliteStoreOptions,
  type SqliteSynchronous,
} from './store/sqlite-store.js';
export type {
  AuditNote,
  AuditTrail,
  AutoKey,
  AutoRecord,
  CommitBegin,
  CommitRecord,
  CommitStart,
  CommitState,
  DataAccess,
  HandleRecord,
  ReceiptRecord,
  Reservation,
  RevocationRecord,
  Settled,
  SpendCap,
  Store,
  StoredProposal,
  UndoBegin,
  UndoState,
} from './store/store.js';
