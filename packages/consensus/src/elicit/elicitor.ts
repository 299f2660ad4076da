import type { PyNumber, PyValue } from '../py-json/value.js';
import type { AttributeCatalog, ValueKind } from './attributes.js';
import { MAX_LISTED_VALUES } from './attributes.js';
import type { Answers } from './prompts.js';

/** One attribute of the case's options as the model is told about it. */
export interface AttributeSummary {
  readonly name: string;
  readonly kinds: readonly ValueKind[];
  /** Up to MAX_LISTED_VALUES of the values the options hold. */
  readonly values: readonly PyValue[];
  readonly min: PyNumber | null;
  readonly max: PyNumber | null;
}

/**
 * What an elicitor is given: ONE participant's own answers, and the attributes of the options
 * every party sees. Never another participant's answers or sheet (parley-consensus
 * 03-private-elicitation, "Invariants").
 */
export interface ElicitRequest {
  readonly answers: Answers;
  readonly attributes: readonly AttributeSummary[];
}

/**
 * The seam every model sits behind. It proposes, as plain data,
 * `{claims: [text], hard: [{attr, op, value, source_prompt_id}], utility: [{attr, weight, prefer
 * | direction, lo, hi, source_prompt_id}], unclear: [{question, source_prompt_id}]}`. What it
 * returns is untrusted and checked in full by `draftSheet`; it earns no trust by being a model.
 */
export interface Elicitor {
  /** Who drafts, said to the person: "openai gpt-4.1-mini at api.openai.com", "scripted". */
  readonly label: string;
  elicit(request: ElicitRequest, options?: { readonly signal?: AbortSignal }): Promise<unknown>;
}

/** The catalog as the model is told about it (values listed up to MAX_LISTED_VALUES). */
export function summarizeAttributes(catalog: AttributeCatalog): AttributeSummary[] {
  return [...catalog.values()].map((info) => ({
    name: info.name,
    kinds: info.kinds,
    values: info.values.slice(0, MAX_LISTED_VALUES),
    min: info.min,
    max: info.max,
  }));
}
