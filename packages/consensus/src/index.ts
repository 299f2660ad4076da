export { checkPartyCommand } from './commands/check-party.js';
export { type DecideCommandOptions, decideCommand } from './commands/decide.js';
export { optionLabel } from './commands/option-label.js';
export { outcomeLines } from './commands/outcome-text.js';
export type { CommandOutput } from './commands/output.js';
export { verifyReceiptCommand } from './commands/verify-receipt.js';
export { Agent, type AgentLike, type AsyncAgentLike } from './decision/agent.js';
export { pickMaxMin, type Standing, standingOf } from './decision/max-min.js';
export {
  type AsyncRunOptions,
  type ConsensusResult,
  RULES,
  type Rule,
  runConsensus,
  runConsensusAsync,
} from './decision/run.js';
export { REASONS, type Reason, type Verdict } from './decision/verdict.js';
export {
  type OutcomeCheck,
  type VerifyOutcomeOptions,
  verifyOutcome,
} from './decision/verify-outcome.js';
export {
  type AttributeCatalog,
  type AttributeInfo,
  attributeCatalog,
  MAX_LISTED_VALUES,
  VALUE_KINDS,
  type ValueKind,
} from './elicit/attributes.js';
export {
  type Confirmation,
  type ConfirmedSheet,
  confirmSheet,
  sheetToParty,
} from './elicit/confirm.js';
export {
  type Clarification,
  type DraftBase,
  type DraftOptions,
  draftFromReply,
  draftSheet,
  type HardItem,
  MAX_DRAFT_ITEMS,
  MAX_PREVIEW_CHARS,
  type RejectedItem,
  type SheetDraft,
  type SoftItem,
  sheetVersion,
} from './elicit/draft.js';
export {
  CONFIRMED_FORMAT,
  DRAFT_FORMAT,
  draftToDict,
  partyFileDict,
  readDraft,
} from './elicit/draft-file.js';
export {
  type AttributeSummary,
  type Elicitor,
  type ElicitRequest,
  summarizeAttributes,
} from './elicit/elicitor.js';
export {
  DRAFT_REPLY_SCHEMA,
  ELICIT_INSTRUCTIONS,
  elicitUserMessage,
} from './elicit/instructions.js';
export {
  type Interview,
  newId,
  type RandomSource,
  recordAnswer,
  startInterview,
} from './elicit/interview.js';
export {
  optionsLeft,
  optionsLeftNote,
  optionsLeftSentence,
  redLinesLeave,
} from './elicit/options-left.js';
export { plainDataProblem } from './elicit/plain-data.js';
export {
  type Answers,
  MAX_ANSWER_CHARS,
  nextPrompt,
  PROMPTS,
  type PromptId,
  questionOf,
  readAnswers,
} from './elicit/prompts.js';
export {
  clarificationLine,
  describeConstraint,
  hardLine,
  renderDraft,
  safeText,
  softLine,
} from './elicit/render.js';
export { type Change, type Revision, reopenSheet, reviseSheet } from './elicit/revise.js';
export {
  constraintRule,
  type ParsedRule,
  parseRule,
  RULE_EXAMPLES,
  ruleExamples,
  termRule,
} from './elicit/rule-text.js';
export {
  type CheckContext,
  type Checked,
  checkHard,
  checkSoft,
  MAX_TEXT_CHARS,
} from './elicit/validate-item.js';
export {
  CONSENSUS_ERROR_CODES,
  ConsensusError,
  type ConsensusErrorCode,
  ELICIT_ERROR_KINDS,
  ElicitError,
  type ElicitErrorKind,
  JsonReadError,
  RatifyError,
  SpecError,
  UtilityError,
} from './errors.js';
export { type DumpsOptions, pyDumps, quotePy } from './py-json/dumps.js';
export { pyCompareNumbers, pyEquals } from './py-json/equals.js';
export { formatPyFloat } from './py-json/float-repr.js';
export { MAX_INT_DIGITS, parsePyJson } from './py-json/parse.js';
export {
  checkPyValue,
  floatValue,
  isPyNumber,
  isPyObject,
  MAX_DEPTH,
  PyFloat,
  type PyNumber,
  type PyObject,
  type PyScalar,
  type PyValue,
  pyFloat,
  toFloat,
} from './py-json/value.js';
export {
  type Acceptance,
  readAcceptance,
  signAcceptance,
  verifyAcceptanceSignature,
} from './ratify/acceptance.js';
export {
  type AgreementCheck,
  type AgreementCode,
  type AgreementOptions,
  agreement,
} from './ratify/agreement.js';
export {
  type RatificationView,
  ratificationView,
  signRatification,
} from './ratify/ratification.js';
export { ratify } from './ratify/ratify.js';
export { type SealedReceipt, sealReceipt } from './ratify/seal.js';
export {
  makeReceipt,
  RECEIPT_FORMAT,
  type Receipt,
  type ReceiptExtras,
  readReceipt,
  receiptToDict,
  writeReceipt,
} from './receipt/receipt.js';
export {
  type CheckStatus,
  type ReceiptCheck,
  type ReceiptReport,
  type VerifyReceiptOptions,
  verifyReceipt,
} from './receipt/verify-receipt.js';
export {
  type Evaluation,
  HardConstraint,
  NEUTRAL_SCORE,
  PreferenceSheet,
  type PreferenceSheetInit,
} from './sheet/preference-sheet.js';
export { publicKeyHex } from './signing/keys.js';
export {
  ACCEPTANCE_V1,
  acceptancePayload,
  optionPayloadText,
  VERDICT_KINDS,
  VERDICT_V1,
  VERDICT_V2,
  type VerdictKind,
  verdictPayload,
} from './signing/payloads.js';
export { createSession, type Session } from './signing/session.js';
export { hashOption, hashOptionList } from './signing/session-options.js';
export { SigningAgent, type SigningAgentOptions } from './signing/signing-agent.js';
export {
  type TranscriptSignatureCheck,
  type TranscriptSignatureCode,
  type VerifyTranscriptOptions,
  verifyTranscript,
} from './signing/verify-transcript.js';
export { constraintHolds, partySheet } from './spec/compile.js';
export { decide, specAgents } from './spec/decide.js';
export { MAX_EVALUATIONS, MAX_LIST_ITEMS, MAX_OPTIONS, MAX_PARTIES } from './spec/limits.js';
export { readPartyFrom } from './spec/read-party-from.js';
export { readParty, readSpec } from './spec/read-spec.js';
export {
  type Constraint,
  type DecisionSpec,
  DIRECTIONS,
  type Direction,
  OPERATORS,
  type Operator,
  type PartySpec,
  type UtilityTerm,
} from './spec/types.js';
export { partyToDict, specToDict } from './spec/write-spec.js';
export {
  STATUSES,
  type Status,
  Transcript,
  type TranscriptEntry,
  type TranscriptResult,
} from './transcript/transcript.js';
