import type { PyObject } from '../py-json/value.js';
import { payloadTextOf } from '../signing/payloads.js';
import { wireText } from './wire.js';

/**
 * An option as a run asks every delegate about it: its text inside a verdict payload and its
 * `/consider` body, each written once for all the delegates rather than once per delegate. The
 * run makes one per option, before any is asked about, and changes none of them after.
 */
export class AskedOption {
  readonly option: PyObject;
  /** The payload text, once written (or given). */
  #text: { readonly value: string | undefined } | undefined;
  /** The body outside a session, once written. */
  #plain: string | undefined;
  /** The body in the last session asked in, and its nonce. */
  #inSession: { readonly nonce: string; readonly body: string } | undefined;

  /**
   * `text`, when given, must be `optionPayloadText(option)`: a verdict is checked over it, so any
   * other text fails every verdict on this option as a bad signature.
   */
  constructor(option: PyObject, text?: string) {
    this.option = option;
    if (text !== undefined) this.#text = { value: text };
  }

  /** `payloadTextOf(option)`: undefined when it cannot be written inside a payload. */
  get text(): string | undefined {
    this.#text ??= { value: payloadTextOf(this.option) };
    return this.#text.value;
  }

  /** The `/consider` body: `{"option": …}`, and `"session": nonce` inside a session. */
  body(nonce: string | null): string {
    if (nonce === null) {
      this.#plain ??= wireText({ option: this.option });
      return this.#plain;
    }
    if (this.#inSession?.nonce !== nonce) {
      this.#inSession = { nonce, body: wireText({ option: this.option, session: nonce }) };
    }
    return this.#inSession.body;
  }
}
