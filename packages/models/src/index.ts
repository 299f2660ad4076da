export { AnthropicElicitor } from './anthropic-elicitor.js';
export { type BoundedFetch, boundedFetch, type FetchProblem } from './bounded-fetch.js';
export { elicitorFor } from './elicitor-for.js';
export {
  baseUrlLabel,
  DEFAULT_MAX_OUTPUT_TOKENS,
  DEFAULT_MAX_REPLY_BYTES,
  DEFAULT_MAX_RETRIES,
  DEFAULT_MODELS,
  DEFAULT_TIMEOUT_MS,
  describeModel,
  MAX_RETRY_WAIT_MS,
  type ModelConfig,
  type ModelFlags,
  modelConfigFrom,
  PROVIDERS,
  type Provider,
} from './model-config.js';
export { MODEL_ERROR_KINDS, ModelError, type ModelErrorKind, redact } from './model-error.js';
export { OpenAiElicitor } from './openai-elicitor.js';
export { DRAFT_TOOL, draftInReply, REPLY_SHAPES, type ReplyShape } from './reply-shapes.js';
export { readByRules } from './rule-reader.js';
export {
  anthropicToolMessage,
  chatCompletion,
  SCRIPTED_LABEL,
  ScriptedElicitor,
  type ScriptedReply,
} from './scripted-elicitor.js';
