import { safeText } from '@parley/consensus';
import type { FetchProblem } from './bounded-fetch.js';
import { describeModel, type ModelConfig } from './model-config.js';
import { ModelError, type ModelErrorKind, redact } from './model-error.js';

/** Characters of a provider's own error message kept in ours. */
const MAX_SERVER_MESSAGE = 200;

/**
 * An SDK's failure (both SDKs throw the same family: APIError with `status`, connection and
 * timeout errors) as one ModelError sentence naming the model and what to do, without the key.
 */
export function modelErrorOf(
  error: unknown,
  config: ModelConfig,
  problem: FetchProblem,
): ModelError {
  if (error instanceof ModelError) return error;
  const who = describeModel(config);
  const scrub = (text: string): string =>
    safeText(redact(text, [config.apiKey])).slice(0, MAX_SERVER_MESSAGE);
  if (problem === 'too_large') {
    return new ModelError(
      'too_large',
      `${who} sent a reply larger than ${config.maxReplyBytes} bytes; nothing was drafted`,
    );
  }
  if (problem === 'timeout') {
    return new ModelError(
      'timeout',
      `${who} did not finish its reply within ${config.timeoutMs / 1000} s (${config.maxRetries + 1} tries); nothing was drafted`,
    );
  }
  const name = error instanceof Error ? error.constructor.name : '';
  const status =
    typeof error === 'object' && error !== null
      ? (error as { status?: unknown }).status
      : undefined;
  if (typeof status === 'number') {
    const said = serverMessage((error as { error?: unknown }).error) ?? (error as Error).message;
    const [kind, advice] = statusAdvice(status, config);
    return new ModelError(kind, `${who} answered ${status}: ${scrub(said)}${advice}`);
  }
  if (name === 'APIConnectionTimeoutError') {
    return new ModelError('timeout', `${who} did not answer in time; nothing was drafted`);
  }
  const cause =
    error instanceof Error && error.cause instanceof Error ? `: ${scrub(error.cause.message)}` : '';
  return new ModelError('connection', `cannot reach ${who}${cause}`);
}

function statusAdvice(status: number, config: ModelConfig): [ModelErrorKind, string] {
  if (status === 401 || status === 403) return ['auth', ` (check ${config.keySource})`];
  if (status === 429)
    return ['rate_limited', ' (still rate limited after the retries; try again later)'];
  if (status >= 500) return ['unavailable', ' (the provider failed after the retries)'];
  return ['bad_request', ''];
}

/** The message of an error body: OpenAI's `{error: {message}}` (the SDK keeps its inside) or
 * Anthropic's `{type: "error", error: {message}}`. */
function serverMessage(body: unknown): string | null {
  if (typeof body !== 'object' || body === null) return null;
  const { message, error } = body as { message?: unknown; error?: unknown };
  if (typeof message === 'string') return message;
  return serverMessage(error);
}
