export {
  authenticate,
  type Holder,
  reissueLink,
  requireOrganizer,
  requireParty,
  revokeLinks,
} from './access.js';
export {
  CaseService,
  type CaseServiceOptions,
  expiresAt,
  type MailSender,
  type OutgoingMessage,
} from './case-service.js';
export {
  type CheckedCase,
  type CreatedCase,
  checkNewCase,
  createCase,
  type NewCase,
} from './create-case.js';
export {
  type CreatedTokens,
  type CreateRequest,
  IDEMPOTENCY_KEY_PATTERN,
  readIdempotencyKey,
} from './create-request.js';
export { decideRound } from './decide-round.js';
export { CASE_ERROR_CODES, CaseError, type CaseErrorCode } from './errors.js';
export {
  addEvidence,
  EVIDENCE_TYPES,
  readEvidence,
  safeFilename,
  shareEvidence,
  sniffType,
} from './evidence.js';
export { CASES_API_PREFIX, CASES_PAGE_PATH, casesApi } from './http/cases-api.js';
export { MAX_REFUSED_LINKS, RefusalLimit } from './http/refusal-limit.js';
export { answerPrompt, confirmOwnSheet, editDraft, keepDraft } from './interview-steps.js';
export {
  LINK_BYTES,
  LINK_TTL_SECONDS,
  MAX_EVIDENCE_BYTES,
  MAX_EVIDENCE_FILES,
  MAX_PARTIES,
  MAX_ROUNDS,
  MIN_PARTIES,
  TERMINAL_RETENTION_SECONDS,
  UNFINISHED_RETENTION_SECONDS,
} from './limits.js';
export { type IssuedLinks, linkUrl, tokenOfLink } from './link-url.js';
export { hashToken, mintLink, openLink, sealLink, TOKEN_PATTERN } from './links.js';
export { readCaseOptions } from './options.js';
export { MESSAGE_KINDS, type MessageKind } from './outbox.js';
export {
  acceptProposal,
  cancelCase,
  closeCase,
  rejectProposal,
  reviseOwnSheet,
} from './ratification-steps.js';
export { buildReceipt } from './receipt-of.js';
export { renderReceiptPdf, statusWords } from './receipt-pdf.js';
export {
  ANSWERS,
  CASE_STATES,
  type CaseEvent,
  type CaseRecord,
  type CaseState,
  type Clock,
  type DisclosedEvidence,
  type EvidenceItem,
  isTerminal,
  type Link,
  type OutboxMessage,
  type Party,
  type PartyAnswer,
  type PartyPrivate,
  type Proposal,
  SHEET_STATES,
  type SharedCase,
  TERMINAL_STATES,
} from './record.js';
export { type CaseStore, type StoredRequest, TABLES } from './store/case-store.js';
export { PostgresCaseStore } from './store/postgres-case-store.js';
export { KEY_FILE_NAME, open as openSealed, readOrCreateKeyFile, seal } from './store/sealing.js';
export { CASES_DB_FILE, SqliteCaseStore } from './store/sqlite-case-store.js';
export { organizerView, partyView } from './views.js';
