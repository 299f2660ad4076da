import type { JsonValue } from '@parley/protocol';

/** What stands in for a credential wherever text leaves the service. */
export const REDACTED = '***';

/** The header the service authenticates to its upstream with. The value never leaves it. */
export type Credentials = { header: string; value: string };

/**
 * Removes every form of the secrets a reply, log line or error could carry: the value itself, the
 * token after its scheme word, and their percent-encodings. Applied to everything that leaves.
 */
export class Redactor {
  readonly #needles: string[];

  constructor(secrets: readonly string[]) {
    const forms = new Set<string>();
    for (const secret of secrets) {
      for (const part of [secret, secret.replace(/^\S+\s+/, '')]) {
        if (part.trim() === '') continue;
        forms.add(part);
        forms.add(encodeURIComponent(part));
      }
    }
    // Longest first, so a token inside a longer form is not left half-replaced.
    this.#needles = [...forms].sort((a, b) => b.length - a.length);
  }

  /** Whether there is anything to hide. */
  get active(): boolean {
    return this.#needles.length > 0;
  }

  text(text: string): string {
    let out = text;
    for (const needle of this.#needles) out = out.split(needle).join(REDACTED);
    return out;
  }

  /** A JSON value with the secrets removed from every string and key. */
  json<T extends JsonValue | undefined>(value: T): T {
    if (!this.active || value === undefined) return value;
    return this.#walk(value) as T;
  }

  /** An error fit to log: its message and stack with the secrets removed. */
  error(error: unknown): unknown {
    if (!this.active) return error;
    if (!(error instanceof Error)) return this.text(String(error));
    const clean = new Error(this.text(error.message));
    clean.name = error.name;
    clean.stack = this.text(error.stack ?? '');
    if (error.cause !== undefined) clean.cause = this.error(error.cause);
    return clean;
  }

  #walk(value: JsonValue): JsonValue {
    if (typeof value === 'string') return this.text(value);
    if (Array.isArray(value)) return value.map((v) => this.#walk(v));
    if (value !== null && typeof value === 'object') {
      return Object.fromEntries(
        Object.entries(value).map(([k, v]) => [this.text(k), this.#walk(v)]),
      );
    }
    return value;
  }
}
