import {
  decodeGrant,
  generateKeyPair,
  grantHolder,
  grantRevocationTargets,
  type KeyPair,
  type Proof,
  proofTarget,
  publicKeyString,
  type Request,
  readCaveat,
  signProof,
} from '@parley/protocol';
import { ClientError } from './client-error.js';

/** Options of a Wallet. */
export interface WalletOptions {
  /** Grant tokens to hold from the start. */
  grants?: readonly string[];
  /**
   * Whether grants with no `svc` caveat are sent to every service. Default false: a grant is
   * disclosed only to the services it names, since it shows its principal and caveats to
   * whoever receives it.
   */
  sendUnscoped?: boolean;
  /** Unix milliseconds, for proof timestamps; default Date.now. */
  now?: () => number;
}

/** A held grant and the services its `svc` caveats allow (undefined: no svc caveat). */
interface HeldGrant {
  token: string;
  services: string[][] | undefined;
}

function svcScopes(token: string): string[][] | undefined {
  const scopes: string[][] = [];
  for (const block of decodeGrant(token)) {
    for (const caveat of block.p.caveats) {
      const read = readCaveat(caveat);
      if ('name' in read && read.name === 'svc') scopes.push(read.value);
    }
  }
  return scopes.length === 0 ? undefined : scopes;
}

/**
 * The agent's key pair and grant tokens (§6). For each service it picks the grants whose `svc`
 * caveats (in every block) name that service, and signs the §6.5 proof of possession.
 */
export class Wallet {
  /** The agent (holder) key. */
  readonly key: KeyPair;
  /** The agent key as "ed25519:…". */
  readonly publicKey: string;
  readonly #grants: HeldGrant[] = [];
  readonly #sendUnscoped: boolean;
  readonly #now: () => number;

  constructor(key: KeyPair, options: WalletOptions = {}) {
    this.key = key;
    this.publicKey = publicKeyString(key);
    this.#sendUnscoped = options.sendUnscoped ?? false;
    this.#now = options.now ?? Date.now;
    for (const token of options.grants ?? []) this.add(token);
  }

  /** A wallet with a fresh random key. */
  static async generate(options: WalletOptions = {}): Promise<Wallet> {
    return new Wallet(await generateKeyPair(), options);
  }

  /**
   * Holds a grant token. Throws GrantFormatError for a token that does not decode, and ClientError
   * `not_holder` for a grant held by another key (its proof could never be signed here).
   */
  add(token: string): void {
    if (this.#grants.some((held) => held.token === token)) return;
    if (grantHolder(decodeGrant(token)) !== this.publicKey) {
      throw new ClientError(
        'not_holder',
        'this grant is held by another key; only its holder can use it (§6.4)',
      );
    }
    this.#grants.push({ token, services: svcScopes(token) });
  }

  /** Drops a grant token; whether it was held. */
  remove(token: string): boolean {
    const index = this.#grants.findIndex((held) => held.token === token);
    if (index === -1) return false;
    this.#grants.splice(index, 1);
    return true;
  }

  /**
   * docs/extensions.md §E2: drops every held grant whose chain holds the revoked target
   * (`block:ID` or `key:PRINCIPAL:KEY`, as an ERROR's `revoked` names it); the tokens dropped.
   */
  dropRevoked(target: string): string[] {
    const dropped = this.#grants
      .filter((held) => grantRevocationTargets(held.token).includes(target))
      .map((held) => held.token);
    for (const token of dropped) this.remove(token);
    return dropped;
  }

  /** Every held token. */
  get grants(): string[] {
    return this.#grants.map((held) => held.token);
  }

  /** §6.3 svc: the tokens to present to `serviceId`. */
  grantsFor(serviceId: string): string[] {
    const chosen: string[] = [];
    for (const held of this.#grants) {
      const fits =
        held.services === undefined
          ? this.#sendUnscoped
          : held.services.every((names) => names.includes(serviceId));
      if (fits) chosen.push(held.token);
    }
    return chosen;
  }

  /** §6.5: the proof of possession for `request` at `serviceId`, timestamped now. */
  prove(request: Request, serviceId: string): Promise<Proof> {
    return signProof(this.key, {
      aud: serviceId,
      verb: request.verb,
      target: proofTarget(request),
      ts: Math.floor(this.#now() / 1000),
    });
  }
}
