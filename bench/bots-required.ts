/**
 * The required coordinator of bench/python-bots.bench.ts (issue 27): the least a decision over
 * the Python package's bots must do when it checks what it is told, in plain node:net,
 * node:crypto and JSON. The bots speak `parley/0.1` over HTTP/1.0 and close each connection after
 * one answer, so every request is a fresh connection. Per decision: the 5 cards, each checked
 * against the roster read at the start; every option asked of every bot (at most
 * 4 at once per bot, as ours asks them), each
 * verdict's fields checked and its `verdict/0.1` signature verified over the payload rebuilt from
 * what was asked; the egalitarian max-min pick; a SHA-256 over the answers (a stand-in for the
 * receipt). What it leaves out, so that it is a floor: node:http, the package's checks of
 * hostile answers beyond the verdict's fields, its failure reports, its Python-typed JSON (the
 * meeting's options read alike in plain JSON: the bench holds the pick to ours).
 */
import { createHash, type KeyObject, verify } from 'node:crypto';
import { connect } from 'node:net';
import {
  type Answered,
  canonicalOptionText,
  floatText,
  maxMin,
  wellFormedVerdict,
} from './consensus-required.js';
import { rawPublicKey } from './raw-ed25519-key.js';

/**
 * Requests in flight to one bot: one below its listen backlog of 5, as our coordinator asks a
 * delegate that closes each connection (FRESH_CONNECTIONS_IN_FLIGHT in remote-agent.ts).
 */
const IN_FLIGHT = 4;

interface Bot {
  readonly port: number;
  readonly owner: string;
  readonly pubkeyHex: string;
  readonly key: KeyObject;
}

/** A coordinator of the bots at `ports`, with the roster their cards gave when it was made. */
export class RequiredBotsCoordinator {
  readonly #bots: readonly Bot[];

  private constructor(bots: readonly Bot[]) {
    this.#bots = bots;
  }

  static async create(ports: readonly number[]): Promise<RequiredBotsCoordinator> {
    const bots = await Promise.all(
      ports.map(async (port) => {
        const card = JSON.parse(await exchange(port, 'GET', '/card', ''));
        const pubkeyHex = card.pubkey_hex as string;
        return {
          port,
          owner: card.owner as string,
          pubkeyHex,
          key: rawPublicKey(Buffer.from(pubkeyHex, 'hex')),
        };
      }),
    );
    return new RequiredBotsCoordinator(bots);
  }

  /** One decision over `options`: the index of the option picked (-1 for none) and the hash. */
  async decide(options: readonly unknown[]): Promise<{ picked: number; hash: string }> {
    await Promise.all(this.#bots.map((bot) => checkCard(bot)));
    const texts = options.map(canonicalOptionText);
    const answered: Answered[] = [];
    const ask = async (bot: Bot, o: number) => {
      const body = `{"option": ${JSON.stringify(options[o])}}`;
      const v = JSON.parse(await exchange(bot.port, 'POST', '/consider', body));
      if (!wellFormedVerdict(v, bot.owner, bot.pubkeyHex)) {
        throw new Error(`${bot.owner} sent a malformed verdict`);
      }
      const payload =
        `{"acceptable": ${v.acceptable}, "option": ${texts[o]}, "owner": ${JSON.stringify(bot.owner)}, ` +
        `"reason": "${v.reason}", "score": ${floatText(v.score)}, "type": "verdict/0.1"}`;
      if (!verify(null, Buffer.from(payload, 'utf8'), bot.key, Buffer.from(v.sig, 'hex'))) {
        throw new Error(`${bot.owner}'s verdict signature does not verify`);
      }
      answered.push({ owner: bot.owner, option: o, acceptable: v.acceptable, score: v.score });
    };
    await Promise.all(
      this.#bots.map(async (bot) => {
        let next = 0;
        const lane = async () => {
          while (next < options.length) await ask(bot, next++);
        };
        await Promise.all(Array.from({ length: IN_FLIGHT }, lane));
      }),
    );
    const hash = createHash('sha256').update(JSON.stringify(answered)).digest('hex');
    return { picked: maxMin(answered, options.length), hash };
  }
}

async function checkCard(bot: Bot): Promise<void> {
  const card = JSON.parse(await exchange(bot.port, 'GET', '/card', ''));
  if (card.owner !== bot.owner || card.pubkey_hex !== bot.pubkeyHex) {
    throw new Error(`${bot.owner}'s card does not match the roster`);
  }
}

/** One request on a fresh connection; the body of a 200 answer, read to the bot's close. */
function exchange(port: number, method: string, path: string, body: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('error', reject);
    socket.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const head = text.indexOf('\r\n\r\n');
      if (head < 0 || !/^HTTP\/1\.[01] 200 /.test(text)) {
        reject(new Error(`port ${port} answered ${path} with ${text.slice(0, 40)}`));
      } else resolve(text.slice(head + 4));
    });
    const length = method === 'POST' ? `Content-Length: ${Buffer.byteLength(body)}\r\n` : '';
    socket.write(
      `${method} ${path} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Type: application/json\r\n${length}Connection: close\r\n\r\n${body}`,
    );
  });
}
