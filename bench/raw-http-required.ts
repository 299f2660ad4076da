/**
 * The required delegate of bench/consensus-net.bench.ts (issue 27): a raw node:http server, in
 * its own process, doing the least a `parley/0.2` delegate must, in plain node:crypto and JSON,
 * nothing of the package's wire code. The required coordinator (consensus-required.ts) drives it.
 *
 * - `GET /card`: the card bytes a real delegate sends (PARLEY_BENCH_CARD).
 * - `POST /session`: the bearer token; the nonce; the roster pins this owner to this key; the
 *   option hashes, each 64 hex; their list's hash (the session binds it into every signature).
 * - `POST /consider`: the bearer token; the option's canonical text and its SHA-256 (remembered
 *   per option text, as the package's delegate remembers them), in the session, answered once;
 *   the owner's sheet (the package's evaluator: the owner's policy, not protocol work); the
 *   `verdict/0.2` payload signed; the verdict written as the package writes it.
 *
 * What it leaves out, so that it is a floor: the package's checks of hostile input beyond what
 * the wire form needs (nesting, sizes, Python's number types: JSON.parse reads the bench's options
 * alike, which the required coordinator checks against the package's transcript), rate limits,
 * the log. PARLEY_BENCH_PARTY is the party's spec, PARLEY_BENCH_SEED its key's seed (hex),
 * PARLEY_BENCH_TOKEN the bearer token. Prints its port.
 */
import { createHash, createPrivateKey, sign, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { partySheet, readSpec } from '@parley/consensus';
import { canonicalOptionText, floatText, rosterText } from './consensus-required.js';

const env = (name: string): string => {
  const value = process.env[name];
  if (value === undefined) throw new Error(`raw-http-required: ${name} is not set`);
  return value;
};
const party = JSON.parse(env('PARLEY_BENCH_PARTY'));
const sheet = partySheet(
  readSpec({ title: 'one party', options: [{ id: 'x' }], parties: [party] }).parties[0] as never,
);
const owner: string = party.owner;
const card = Buffer.from(env('PARLEY_BENCH_CARD'), 'utf8');
const bearer = Buffer.from(`Bearer ${env('PARLEY_BENCH_TOKEN')}`, 'latin1');
const PKCS8_PREFIX = Buffer.from('302e020100300506032b657004220420', 'hex');
const privateKey = createPrivateKey({
  key: Buffer.concat([PKCS8_PREFIX, Buffer.from(env('PARLEY_BENCH_SEED'), 'hex')]),
  format: 'der',
  type: 'pkcs8',
});
const pubkeyHex: string = JSON.parse(card.toString('utf8')).pubkey_hex;
const HEX64 = /^[0-9a-f]{64}$/;
const sha256Hex = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');

/** A session: its payload's fixed parts, and how many answers each option hash has left. */
interface Held {
  readonly head: string;
  readonly tail: string;
  readonly roster: string;
  readonly remaining: Map<string, number>;
}
const sessions = new Map<string, Held>();
/** Sessions kept at once, the oldest forgotten first (the package's delegate bounds them too). */
const MAX_SESSIONS = 64;
/** An option's canonical text and hash, by the option's text as the request wrote it. */
const known = new Map<string, { text: string; hash: string }>();

function answer(res: ServerResponse, status: number, body: string): void {
  res.writeHead(status, {
    'Content-Type': 'application/json',
    'Content-Length': Buffer.byteLength(body),
  });
  res.end(body);
}

function openSession(body: string): [number, string] {
  const request = JSON.parse(body);
  const { nonce, roster, option_hashes: hashes } = request;
  if (typeof nonce !== 'string' || nonce === '' || nonce.length > 256) return [400, '{}'];
  if (roster === null || typeof roster !== 'object' || roster[owner] !== pubkeyHex) {
    return [400, '{}'];
  }
  if (!Array.isArray(hashes) || hashes.length === 0 || !hashes.every((h) => HEX64.test(h))) {
    return [400, '{}'];
  }
  const remaining = new Map<string, number>();
  for (const h of hashes as string[]) remaining.set(h, (remaining.get(h) ?? 0) + 1);
  const listHash = sha256Hex(`[${(hashes as string[]).map((h) => `"${h}"`).join(', ')}]`);
  if (sessions.size >= MAX_SESSIONS) sessions.delete(sessions.keys().next().value as string);
  sessions.set(nonce, {
    head: `"nonce": ${JSON.stringify(nonce)}, "option": `,
    tail: `, "options_sha256": "${listHash}", "owner": ${JSON.stringify(owner)}, `,
    roster: rosterText(roster),
    remaining,
  });
  return [200, `{"session": ${JSON.stringify(nonce)}, "owner": ${JSON.stringify(owner)}}`];
}

function consider(body: string): [number, string] {
  const request = JSON.parse(body);
  const held = sessions.get(request.session);
  if (held === undefined) return [400, '{}'];
  const optionJson = JSON.stringify(request.option);
  let option = known.get(optionJson);
  if (option === undefined) {
    const text = canonicalOptionText(request.option);
    option = { text, hash: sha256Hex(text) };
    known.set(optionJson, option);
  }
  const left = held.remaining.get(option.hash);
  if (left === undefined || left === 0) return [403, '{}'];
  held.remaining.set(option.hash, left - 1);
  const evaluation = sheet.evaluate(request.option);
  const acceptable = evaluation.feasible;
  const score = floatText(acceptable ? evaluation.score : 0);
  const reason = acceptable ? 'ok' : 'red-line';
  const payload =
    `{"acceptable": ${acceptable}, ${held.head}${option.text}${held.tail}` +
    `"reason": "${reason}", "roster": ${held.roster}, "score": ${score}, "type": "verdict/0.2"}`;
  const sig = sign(null, Buffer.from(payload, 'utf8'), privateKey).toString('hex');
  return [
    200,
    `{"owner": ${JSON.stringify(owner)}, "acceptable": ${acceptable}, "score": ${score}, ` +
      `"reason": "${reason}", "sig": "${sig}", "pubkey_hex": "${pubkeyHex}"}`,
  ];
}

function route(req: IncomingMessage, res: ServerResponse, body: string): void {
  if (req.method === 'GET' && req.url === '/card') {
    res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': card.length });
    res.end(card);
    return;
  }
  const auth = Buffer.from(req.headers.authorization ?? '', 'latin1');
  if (auth.length !== bearer.length || !timingSafeEqual(auth, bearer)) {
    answer(res, 401, '{}');
    return;
  }
  try {
    const [status, text] =
      req.url === '/session'
        ? openSession(body)
        : req.url === '/consider'
          ? consider(body)
          : [404, '{}'];
    answer(res, status, text);
  } catch {
    answer(res, 400, '{}');
  }
}

const server = createServer({ keepAliveTimeout: 60_000 }, (req, res) => {
  let body = '';
  req.setEncoding('utf8');
  req.on('data', (chunk: string) => {
    body += chunk;
  });
  req.on('end', () => route(req, res, body));
});
server.listen(0, '127.0.0.1', () => {
  process.stdout.write(`${(server.address() as AddressInfo).port}\n`);
});
