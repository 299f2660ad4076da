/**
 * The required coordinator of bench/consensus-net.bench.ts (issue 27): the least a `parley/0.2`
 * decision across delegates must do, in plain node:http, node:crypto and JSON, against the
 * required delegates (raw-http-required.ts). Per decision: a fresh nonce; the 5 cards, each
 * checked against the roster; every option's canonical text and hash; the 5 sessions opened; every
 * option asked of every delegate (the same requests in flight as the package's coordinator), each
 * verdict's fields checked and its `verdict/0.2` signature verified over the payload rebuilt from
 * what was asked; the egalitarian max-min pick; a SHA-256 over the transcript's JSON (a stand-in
 * for the receipt hash, which has its own limit). What it leaves out, so that it is a floor: the
 * package's checks of hostile answers beyond the verdict's fields, its failure reports, its
 * Python-typed JSON (the bench's options read alike in plain JSON, which `checkAgainst` holds
 * the result to).
 */
import { createHash, type KeyObject, randomBytes, verify } from 'node:crypto';
import { Agent, request } from 'node:http';
import { rawPublicKey } from './raw-ed25519-key.js';

/** Python's `json.dumps(value, sort_keys=True, ensure_ascii=False)` for plain JSON values. */
export function canonicalOptionText(value: unknown): string {
  if (value === null) return 'null';
  // A number as JSON.parse read it: integers stay integers (the bench's options are such).
  if (typeof value === 'number') return String(value);
  if (typeof value === 'string' || typeof value === 'boolean') return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(canonicalOptionText).join(', ')}]`;
  const object = value as Record<string, unknown>;
  const keys = Object.keys(object).sort();
  return `{${keys.map((k) => `${JSON.stringify(k)}: ${canonicalOptionText(object[k])}`).join(', ')}}`;
}

/** A score, which is always a float: Python writes an integral float with ".0". */
export function floatText(x: number): string {
  return Number.isInteger(x) ? x.toFixed(1) : String(x);
}

/** A roster as a `verdict/0.2` payload writes it: owners sorted, keys as they are. */
export function rosterText(roster: Record<string, string>): string {
  return canonicalOptionText(roster);
}

const sha256Hex = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');

export interface RequiredDelegate {
  readonly port: string;
  readonly owner: string;
  readonly pubkeyHex: string;
}

export interface Answered {
  readonly owner: string;
  readonly option: number;
  readonly acceptable: boolean;
  readonly score: number;
}

/** A coordinator that keeps its connections (as the package's long-lived one does). */
export class RequiredCoordinator {
  readonly #delegates: readonly RequiredDelegate[];
  readonly #agents: Agent[];
  readonly #keys: KeyObject[];
  readonly #roster: Record<string, string>;
  readonly #bearer: string;
  readonly #concurrency: number;

  constructor(delegates: readonly RequiredDelegate[], token: string, concurrency: number) {
    this.#delegates = delegates;
    this.#agents = delegates.map(() => new Agent({ keepAlive: true, maxSockets: concurrency }));
    this.#keys = delegates.map((d) => rawPublicKey(Buffer.from(d.pubkeyHex, 'hex')));
    this.#roster = Object.fromEntries(delegates.map((d) => [d.owner, d.pubkeyHex]));
    this.#bearer = `Bearer ${token}`;
    this.#concurrency = concurrency;
  }

  /** One decision over `options`: the index of the option picked (-1 for none) and the hash. */
  async decide(options: readonly unknown[]): Promise<{ picked: number; hash: string }> {
    const nonce = randomBytes(32).toString('hex');
    await Promise.all(this.#delegates.map((d, i) => this.#checkCard(d, i)));
    const texts = options.map(canonicalOptionText);
    const hashes = texts.map(sha256Hex);
    const listHash = sha256Hex(`[${hashes.map((h) => `"${h}"`).join(', ')}]`);
    const sessionBody = JSON.stringify({ nonce, roster: this.#roster, option_hashes: hashes });
    await Promise.all(
      this.#delegates.map(async (d, i) => {
        const acknowledged = JSON.parse(await this.#post(i, '/session', sessionBody));
        if (acknowledged.session !== nonce || acknowledged.owner !== d.owner) {
          throw new Error(`${d.owner} did not acknowledge the session`);
        }
      }),
    );
    const head = `"nonce": "${nonce}", "option": `;
    const roster = rosterText(this.#roster);
    const answered: Answered[] = [];
    const ask = async (i: number, o: number) => {
      const d = this.#delegates[i] as RequiredDelegate;
      const body = `{"option": ${JSON.stringify(options[o])}, "session": "${nonce}"}`;
      const v = JSON.parse(await this.#post(i, '/consider', body));
      if (!wellFormedVerdict(v, d.owner, d.pubkeyHex)) {
        throw new Error(`${d.owner} sent a malformed verdict`);
      }
      const payload =
        `{"acceptable": ${v.acceptable}, ${head}${texts[o]}, "options_sha256": "${listHash}", ` +
        `"owner": ${JSON.stringify(d.owner)}, "reason": "${v.reason}", "roster": ${roster}, ` +
        `"score": ${floatText(v.score)}, "type": "verdict/0.2"}`;
      const signature = Buffer.from(v.sig, 'hex');
      if (!verify(null, Buffer.from(payload, 'utf8'), this.#keys[i] as KeyObject, signature)) {
        throw new Error(`${d.owner}'s verdict signature does not verify`);
      }
      answered.push({ owner: d.owner, option: o, acceptable: v.acceptable, score: v.score });
    };
    await Promise.all(
      this.#delegates.map(async (_, i) => {
        let next = 0;
        const lane = async () => {
          while (next < options.length) await ask(i, next++);
        };
        await Promise.all(Array.from({ length: this.#concurrency }, lane));
      }),
    );
    return { picked: maxMin(answered, options.length), hash: sha256Hex(JSON.stringify(answered)) };
  }

  close(): void {
    for (const agent of this.#agents) agent.destroy();
  }

  async #checkCard(d: RequiredDelegate, i: number): Promise<void> {
    const card = JSON.parse(await this.#exchange(i, 'GET', '/card', ''));
    if (
      card.owner !== d.owner ||
      card.pubkey_hex !== d.pubkeyHex ||
      !Array.isArray(card.protocols) ||
      !card.protocols.includes('parley/0.2')
    ) {
      throw new Error(`${d.owner}'s card does not match the roster`);
    }
  }

  #post(i: number, path: string, body: string): Promise<string> {
    return this.#exchange(i, 'POST', path, body);
  }

  /**
   * One request. Like any keep-alive client it sends again, once, a request that met a kept
   * connection the delegate had just closed as idle (ours closes them after Node's 5 s): it never
   * reached the delegate.
   */
  async #exchange(i: number, method: string, path: string, body: string): Promise<string> {
    try {
      return await this.#once(i, method, path, body);
    } catch (error) {
      if (!(error instanceof StaleSocket)) throw error;
      return this.#once(i, method, path, body);
    }
  }

  #once(i: number, method: string, path: string, body: string): Promise<string> {
    const d = this.#delegates[i] as RequiredDelegate;
    return new Promise((resolve, reject) => {
      const req = request(
        {
          host: '127.0.0.1',
          port: d.port,
          path,
          method,
          agent: this.#agents[i],
          headers: { 'Content-Type': 'application/json', Authorization: this.#bearer },
        },
        (res) => {
          let text = '';
          res.setEncoding('utf8');
          res.on('data', (chunk: string) => {
            text += chunk;
          });
          res.on('end', () => {
            if (res.statusCode === 200) resolve(text);
            else reject(new Error(`${d.owner} answered ${path} with ${res.statusCode}`));
          });
        },
      );
      req.on('error', (error: NodeJS.ErrnoException) =>
        reject(req.reusedSocket && error.code === 'ECONNRESET' ? new StaleSocket() : error),
      );
      if (method === 'POST') req.setHeader('Content-Length', Buffer.byteLength(body));
      req.end(method === 'POST' ? body : undefined);
    });
  }
}

/** A request sent on a kept connection the delegate had closed: it never reached the delegate. */
class StaleSocket extends Error {}

/**
 * A verdict's fields as the masked shape has them: the owner asked, a boolean, a score in
 * [0, 1], the reason that goes with it, and the signer's key and a 64-byte hex signature.
 */
export function wellFormedVerdict(
  v: Record<string, unknown>,
  owner: string,
  pubkeyHex: string,
): boolean {
  return (
    v.owner === owner &&
    typeof v.acceptable === 'boolean' &&
    typeof v.score === 'number' &&
    v.score >= 0 &&
    v.score <= 1 &&
    (v.reason === 'ok' || v.reason === 'red-line') &&
    v.pubkey_hex === pubkeyHex &&
    typeof v.sig === 'string' &&
    v.sig.length === 128
  );
}

/** Egalitarian max-min: of the options all owners accept, the one whose lowest score is highest. */
export function maxMin(answered: readonly Answered[], count: number): number {
  const lowest = new Array<number>(count).fill(Number.POSITIVE_INFINITY);
  for (const a of answered) {
    lowest[a.option] = a.acceptable ? Math.min(lowest[a.option] as number, a.score) : -1;
  }
  let picked = -1;
  for (let o = 0; o < count; o++) {
    const low = lowest[o] as number;
    if (low >= 0 && (picked < 0 || low > (lowest[picked] as number))) picked = o;
  }
  return picked;
}
