import type { JsonValue } from '@parley/protocol';
import { SecretForms } from './secret-forms.js';

/** What stands in for a credential wherever text leaves the service. */
export const REDACTED = '***';

/** The header the service authenticates to its upstream with. The value never leaves it. */
export type Credentials = { header: string; value: string };

/**
 * Removes every form of the secrets a reply, log line or error could carry (secret-forms.ts):
 * the secret, the token after its scheme word, for Basic auth the decoded `user:pass` and the
 * password alone; each raw, escaped, encoded, in base64, base64url or hex, in any letter case.
 * Applied to everything that leaves (redacted-capability.ts and the service's log).
 */
export class Redactor {
  readonly #forms: SecretForms;

  constructor(secrets: readonly string[]) {
    this.#forms = new SecretForms(secretTexts(secrets));
  }

  /** Whether there is anything to hide. */
  get active(): boolean {
    return !this.#forms.empty;
  }

  text(text: string): string {
    let out = '';
    let last = 0;
    for (const [start, end] of this.#forms.find(text)) {
      out += `${text.slice(last, start)}${REDACTED}`;
      last = end;
    }
    return last === 0 ? text : out + text.slice(last);
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

/** A password alone is hidden from this length on: a shorter one would hide common words. */
export const MIN_PASSWORD_HIDDEN = 8;

/**
 * The texts that reveal the secrets: each secret, the token after its scheme word (`Bearer T`),
 * and for `Basic T` the decoded `user:pass` and the password alone (from MIN_PASSWORD_HIDDEN
 * characters). Only the shortest are kept (a text holding another is hidden once the other is),
 * so of `user:pass` the user name stays visible.
 */
export function secretTexts(secrets: readonly string[]): string[] {
  const texts: string[] = [];
  for (const secret of secrets) {
    texts.push(secret);
    const scheme = /^(\S+)\s+(\S.*)$/s.exec(secret);
    if (scheme === null) continue;
    const token = scheme[2] as string;
    texts.push(token);
    if (scheme[1]?.toLowerCase() !== 'basic') continue;
    const decoded = Buffer.from(token, 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    if (colon < 0) continue;
    texts.push(decoded);
    const password = decoded.slice(colon + 1);
    if (password.length >= MIN_PASSWORD_HIDDEN) texts.push(password);
  }
  // The search ignores case (secret-forms.ts), so texts are compared folded.
  const byFolded = new Map(
    texts.filter((t) => t.trim() !== '').map((t) => [t.toLowerCase(), t] as const),
  );
  const folded = [...byFolded.keys()];
  return folded
    .filter((text) => !folded.some((other) => other !== text && text.includes(other)))
    .map((text) => byFolded.get(text) as string);
}
