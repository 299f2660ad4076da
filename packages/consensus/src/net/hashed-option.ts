import type { PyObject, PyValue } from '../py-json/value.js';
import { optionPayloadText } from '../signing/payloads.js';
import { hashOptionText } from '../signing/session-options.js';

/**
 * An option with its canonical text (`optionPayloadText`) and its hash (`hashOptionText` of that
 * text), written once. The option is frozen all the way down before either is written, so they
 * stay its own: a delegate can answer about it again, in the next session, without writing and
 * hashing it again. Only `HashedOption.of` makes one.
 */
export class HashedOption {
  readonly option: PyObject;
  readonly text: string;
  readonly hash: string;

  private constructor(option: PyObject, text: string, hash: string) {
    this.option = option;
    this.text = text;
    this.hash = hash;
  }

  /**
   * The option frozen with its text and hash; null when it cannot be written inside a payload
   * (the caller answers about it the ordinary way, which refuses it as it always did). The option
   * must be a fresh value no one else holds: it is frozen in place.
   */
  static of(option: PyObject): HashedOption | null {
    deepFreeze(option);
    let text: string;
    try {
      text = optionPayloadText(option);
    } catch {
      return null;
    }
    return new HashedOption(option, text, hashOptionText(text));
  }
}

function deepFreeze(value: PyValue): void {
  if (typeof value !== 'object' || value === null || Object.isFrozen(value)) return;
  Object.freeze(value);
  for (const item of Array.isArray(value) ? value : Object.values(value)) deepFreeze(item);
}
