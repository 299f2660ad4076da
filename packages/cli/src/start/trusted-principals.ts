import { join } from 'node:path';
import { isPlainObject, isPublicKey } from '@parley/protocol';
import { CliError } from '../cli-error.js';
import { readJsonFile, writeJsonFile } from '../home/json-file.js';

/** One principal key a page paired with, and when (RFC 3339). */
export type PairedPrincipal = { key: string; paired: string };

/** Where `parley start` keeps the principals of paired pages: DATA/paired-principals.json. */
export function pairedPrincipalsPath(data: string): string {
  return join(data, 'paired-principals.json');
}

/**
 * §6.4: the principals the services of `parley start` trust: the local principal and the keys of
 * the pages paired with it (kept in `DATA/paired-principals.json`, mode 0600, so a pairing
 * survives a restart). A live set: a key paired while the services run is trusted at once.
 * Forgetting every page is deleting that file.
 */
export class TrustedPrincipals {
  readonly #local: string;
  readonly #path: string;
  readonly #paired: PairedPrincipal[];

  private constructor(local: string, path: string, paired: PairedPrincipal[]) {
    this.#local = local;
    this.#path = path;
    this.#paired = paired;
  }

  /** The local principal and the pages paired before; CliError when the file is malformed. */
  static load(local: string, data: string): TrustedPrincipals {
    const path = pairedPrincipalsPath(data);
    const body = readJsonFile(path);
    if (body === undefined) return new TrustedPrincipals(local, path, []);
    const list = isPlainObject(body) ? body.principals : undefined;
    if (
      !Array.isArray(list) ||
      !list.every(
        (p) =>
          isPlainObject(p) &&
          typeof p.key === 'string' &&
          isPublicKey(p.key) &&
          typeof p.paired === 'string',
      )
    ) {
      throw new CliError(
        `${path} must be {"principals": [{"key": "ed25519:…", "paired": "…"}]}; fix it, or delete it to forget every paired page`,
      );
    }
    return new TrustedPrincipals(local, path, list as PairedPrincipal[]);
  }

  has(key: string): boolean {
    return key === this.#local || this.#paired.some((p) => p.key === key);
  }

  /** The principals of paired pages, oldest first. */
  get paired(): readonly PairedPrincipal[] {
    return this.#paired;
  }

  get path(): string {
    return this.#path;
  }

  /** Trusts `key` from now on, and writes it down; nothing changes when it was trusted already. */
  pair(key: string, now: number): void {
    if (this.has(key)) return;
    const paired = new Date(now * 1000).toISOString().replace('.000Z', 'Z');
    writeJsonFile(this.#path, { principals: [...this.#paired, { key, paired }] });
    this.#paired.push({ key, paired });
  }
}
