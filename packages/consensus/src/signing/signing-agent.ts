import type { KeyPair } from '@parley/protocol';
import type { AsyncAgentLike } from '../decision/agent.js';
import { maskVerdict, type Verdict } from '../decision/verdict.js';
import type { PyValue } from '../py-json/value.js';
import type { PreferenceSheet } from '../sheet/preference-sheet.js';
import { publicKeyHex, signHex } from './keys.js';
import { verdictPayload } from './payloads.js';
import type { Session } from './session.js';

export interface SigningAgentOptions {
  /** Sign `verdict/0.2`, bound to this parley; without it, Python's `verdict/0.1`. */
  readonly session?: Session;
}

/** A local delegate that signs every verdict with its owner's Ed25519 key. */
export class SigningAgent<O = PyValue> implements AsyncAgentLike<O> {
  readonly owner: string;
  readonly pubkeyHex: string;
  readonly #sheet: PreferenceSheet<O>;
  readonly #key: KeyPair;
  readonly #session: Session | undefined;

  constructor(
    owner: string,
    sheet: PreferenceSheet<O>,
    key: KeyPair,
    options: SigningAgentOptions = {},
  ) {
    this.owner = owner;
    this.pubkeyHex = publicKeyHex(key);
    this.#sheet = sheet;
    this.#key = key;
    this.#session = options.session;
  }

  async consider(option: O): Promise<Verdict> {
    const verdict = maskVerdict(this.owner, this.#sheet.evaluate(option));
    const sig = await signHex(this.#key, verdictPayload(option as PyValue, verdict, this.#session));
    return { ...verdict, sig, pubkey_hex: this.pubkeyHex };
  }
}
