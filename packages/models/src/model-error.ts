/** Why a model could not draft (the `kind` of a ModelError). */
export const MODEL_ERROR_KINDS = [
  'config',
  'auth',
  'bad_request',
  'rate_limited',
  'unavailable',
  'timeout',
  'too_large',
  'connection',
  'bad_reply',
  'refused',
] as const;
export type ModelErrorKind = (typeof MODEL_ERROR_KINDS)[number];

/**
 * A model call that failed, locally or at the provider: one sentence naming the provider and
 * what to do. Never carries the API key (messages are scrubbed of it) and nothing was drafted.
 */
export class ModelError extends Error {
  override readonly name = 'ModelError';
  readonly kind: ModelErrorKind;

  constructor(kind: ModelErrorKind, message: string) {
    super(message);
    this.kind = kind;
  }
}

/** `text` with every occurrence of each secret replaced by `[redacted]`. */
export function redact(text: string, secrets: readonly (string | null)[]): string {
  let out = text;
  for (const secret of secrets) {
    if (secret !== null && secret.length >= 4) out = out.split(secret).join('[redacted]');
  }
  return out;
}
