/**
 * The least a durable COMMIT must do, done raw (issue 27): every step the spec requires of a
 * COMMIT beyond the verify-first floor (service-sqlite-limit.ts), in plain node:crypto and bare
 * better-sqlite3, with nothing of the dispatcher's: no promise, no store port, no JSON parse of
 * the stored proposal (held in memory as an object), a grant chain verified once and cached,
 * the trail's last row held in memory (one writer, no other process). Each step is timed on its
 * own, per COMMIT, so commit-required-floor.ts can say where the time goes.
 */
import {
  createHash,
  generateKeyPairSync,
  type KeyObject,
  randomBytes,
  sign,
  verify,
} from 'node:crypto';
import { join } from 'node:path';
import { type JsonValue, proofMessage } from '@parley/protocol';
import type { SqliteSynchronous } from '@parley/service';
import Database from 'better-sqlite3';
import { type ShopOrder, shopRows } from './commit-required-shop.js';
import { publicKeyObject } from './raw-ed25519-key.js';
import type { FloorRows } from './service-sqlite-limit.js';

/** The required steps, in the order a COMMIT takes them; `verify` and `tx` the floor pays too. */
export const STEPS = [
  'frame', // §2, §3: the fields a COMMIT reads, of the right types
  'proposal', // §4.4: the stored proposal (in memory), its hash, its expiry
  'proof', // §6.5: skew, the signed text, key (cached) and signature decoded
  'verify', // §6.5: the Ed25519 verify (the floor's)
  'grant', // §4.4, §6.4, §6.3: cached chain, trust, holder, principal, svc / can / spend
  'receipt', // §5.2: its id, the object, its JSON text for the commit row
  'trail', // §E3: the commit row's detail text and chained hash
  'tx', // §4.4 once-only (a unique key), §6.3 reservation, the row, §E3 head mark; COMMIT
  // (the shop's: §5.1 hold read and the writes of its apply, in the same transaction)
] as const;
export type Step = (typeof STEPS)[number];

const AUD = 'bench.example';
const CAPABILITY = 'bench.pay';
const NOW = 1_789_992_000;
const PRICE = 1598;
const CAP = 1_000_000_000_000;
/** A base64url grant token about as long as the bench agent's (three caveats, one block). */
const TOKEN_CHARS = 420;
const GENESIS = 'A'.repeat(43);

type Stored = {
  proposal: {
    id: string;
    capability: string;
    summary: string;
    effects: ShopOrder['effects'];
    cost: { amount: number; currency: string };
    risk: string;
    undo: null;
    expires: number;
    hash: string;
  };
  action: JsonValue;
  holder: string;
  principal: string;
  /** The shop's order, whose apply the COMMIT runs (rows 'shop'). */
  order?: ShopOrder;
};
type Caveat = { svc?: string[]; can?: string[]; spend?: { max: number; currency: string } };
type Chain = { principal: string; holder: string; blocks: { id: string; caveats: Caveat[] }[] };
export type Frame = {
  verb: string;
  proposal: unknown;
  hash: unknown;
  grants: unknown;
  proof: { key: unknown; ts: unknown; sig: unknown };
};

const b64 = (bytes: Buffer): string => bytes.toString('base64url');
const keyText = (key: KeyObject): string =>
  `ed25519:${b64(key.export({ format: 'der', type: 'spki' }).subarray(12))}`;

/** A raw COMMIT service: `prepare` makes frames off the clock, `commit` runs one, timed by step. */
export type RequiredCommits = {
  prepare(count: number): Frame[];
  /** One COMMIT; appends each step's µs to `spent`. */
  commit(frame: Frame, spent: Record<Step, number[]>): void;
  close(): void;
};

/**
 * The raw COMMITs on a database of their own in `folder`; `trail`: keep the §E3 trail; `rows`:
 * a no-op payment, or the example shop's order (commit-required-shop.ts).
 */
export function requiredCommits(
  folder: string,
  synchronous: SqliteSynchronous,
  trail: boolean,
  rows: FloorRows = 'none',
): RequiredCommits {
  const holderKeys = generateKeyPairSync('ed25519');
  const holder = keyText(holderKeys.publicKey);
  const principal = keyText(generateKeyPairSync('ed25519').publicKey);
  const token = `pg1.${b64(randomBytes((TOKEN_CHARS * 3) / 4))}`;
  const blockId = b64(randomBytes(32));
  const chains = new Map<string, Chain>([
    [
      token,
      {
        principal,
        holder,
        blocks: [
          {
            id: blockId,
            caveats: [
              { svc: [AUD] },
              { can: ['bench.*'] },
              { spend: { max: CAP, currency: 'USD' } },
            ],
          },
        ],
      },
    ],
  ]);
  const trusted = new Set([principal]);
  const proposals = new Map<string, Stored>();
  const db = openDatabase(
    join(folder, `required-${rows}-${trail ? 'trail' : 'none'}.db`),
    synchronous,
  );
  const shop = rows === 'shop' ? shopRows(db) : undefined;
  db.prepare('INSERT INTO spend (block_id, total) VALUES (?, 0)').run(blockId);
  const reserve = db.prepare(
    'UPDATE spend SET total = total + ? WHERE block_id = ? AND total + ? <= ?',
  );
  const insert = db.prepare(
    `INSERT INTO commits (seq, proposal_id, holder, principal, reserved, receipt, prev, hash, last)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const unmark = db.prepare('UPDATE commits SET last = NULL WHERE seq = ?');
  let head = { seq: 0, hash: GENESIS };
  let made = 0;

  /** `count` frames, each for a stored proposal of its own, signed by the holder (not timed). */
  function prepare(count: number): Frame[] {
    const frames: Frame[] = [];
    for (let i = 0; i < count; i++) {
      const n = made++;
      const id = `p_${n.toString(36).padStart(6, '0')}${b64(randomBytes(7))}`;
      const hash = b64(randomBytes(32));
      const order = shop?.order(n);
      proposals.set(id, {
        proposal: {
          id,
          capability: CAPABILITY,
          summary: order === undefined ? `Pay ${PRICE}` : 'Order 1 item, standard delivery',
          effects: order?.effects ?? [{ op: 'charge', target: 'card ••4242' }],
          cost: order?.cost ?? { amount: PRICE, currency: 'USD' },
          risk: order === undefined ? 'low' : 'medium',
          undo: null,
          expires: NOW + 600,
          hash,
        },
        action: order?.action ?? { amount: PRICE, n },
        holder,
        principal,
        ...(order === undefined ? {} : { order }),
      });
      const message = proofMessage({ aud: AUD, verb: 'COMMIT', target: hash, ts: NOW });
      const sig = b64(sign(null, message, holderKeys.privateKey));
      // Parsed from text, as a frame off the wire: its strings are its own.
      frames.push(
        JSON.parse(
          JSON.stringify({
            verb: 'COMMIT',
            proposal: id,
            hash,
            grants: [token],
            proof: { key: holder, ts: NOW, sig },
          }),
        ),
      );
    }
    return frames;
  }

  const tx = db.transaction(
    (
      stored: Stored,
      reserved: string,
      receipt: string,
      seq: number,
      prev: string,
      hash: string,
    ) => {
      const id = stored.proposal.id;
      const amount = stored.proposal.cost.amount;
      if (reserve.run(amount, blockId, amount, CAP).changes !== 1) throw new Error('over the cap');
      if (stored.order !== undefined) shop?.apply(stored.order);
      if (trail) {
        insert.run(seq, id, holder, principal, reserved, receipt, prev, hash, 1);
        if (seq > 1) unmark.run(seq - 1);
      } else {
        insert.run(null, id, holder, principal, reserved, receipt, null, null, null);
      }
    },
  );

  /** One COMMIT; appends each step's µs to `spent`. */
  function commit(frame: Frame, spent: Record<Step, number[]>): void {
    let t = performance.now();
    const lap = (step: Step): void => {
      const now = performance.now();
      spent[step].push((now - t) * 1000);
      t = now;
    };
    const { proof, grants } = frame;
    if (
      frame.verb !== 'COMMIT' ||
      typeof frame.proposal !== 'string' ||
      typeof frame.hash !== 'string' ||
      !Array.isArray(grants) ||
      grants.length === 0 ||
      typeof grants[0] !== 'string' ||
      typeof proof !== 'object' ||
      proof === null ||
      typeof proof.key !== 'string' ||
      typeof proof.sig !== 'string' ||
      !Number.isSafeInteger(proof.ts)
    ) {
      throw new Error('bad_frame');
    }
    lap('frame');
    const stored = proposals.get(frame.proposal);
    if (stored === undefined) throw new Error('not_found');
    if (stored.proposal.hash !== frame.hash) throw new Error('conflict');
    if (NOW > stored.proposal.expires) throw new Error('expired');
    lap('proposal');
    const ts = proof.ts as number;
    if (Math.abs(NOW - ts) > 300) throw new Error('unauthorized');
    const message = Buffer.from(
      `{"aud":${JSON.stringify(AUD)},"target":${JSON.stringify(frame.hash)},"ts":${ts},"verb":"COMMIT"}`,
    );
    const key = publicKeyObject(proof.key);
    const sig = Buffer.from(proof.sig, 'base64url');
    lap('proof');
    if (!verify(null, message, key, sig)) throw new Error('unauthorized');
    lap('verify');
    const chain = chains.get(grants[0]);
    if (chain === undefined || !trusted.has(chain.principal)) throw new Error('unauthorized');
    if (chain.holder !== proof.key || stored.holder !== proof.key) throw new Error('forbidden');
    if (chain.principal !== stored.principal) throw new Error('forbidden');
    const { cost, capability } = stored.proposal;
    const caps: string[] = [];
    for (const block of chain.blocks) {
      for (const c of block.caveats) {
        if (c.svc !== undefined && !c.svc.includes(AUD)) throw new Error('forbidden');
        if (c.can !== undefined && !c.can.some((p) => matches(p, capability))) {
          throw new Error('forbidden');
        }
        if (c.spend !== undefined) {
          if (c.spend.currency !== cost.currency || cost.amount > c.spend.max) {
            throw new Error('consent_required');
          }
          caps.push(block.id);
        }
      }
    }
    lap('grant');
    const receipt = {
      id: `r_${sortedTime()}${b64(random(7))}`,
      proposal: stored.proposal.id,
      capability,
      summary: stored.proposal.summary,
      at: NOW,
      effects: stored.proposal.effects,
      cost,
      undo: null,
      result: stored.order === undefined ? { paid: stored.action } : shop?.result(stored.order),
    };
    const receiptText = JSON.stringify(receipt);
    const reserved = JSON.stringify(caps.map((id) => ({ blockId: id, amount: cost.amount })));
    lap('receipt');
    let link = { seq: 0, prev: '', hash: '' };
    if (trail) {
      // §10 canonical text of the detail and of the row: members in sorted order.
      const detail =
        `{"capability":${JSON.stringify(capability)},"cost":{"amount":${cost.amount},` +
        `"currency":${JSON.stringify(cost.currency)}},"holder":${JSON.stringify(holder)},` +
        `"principal":${JSON.stringify(stored.principal)},"proposal":${JSON.stringify(receipt.proposal)},` +
        `"receipt":${JSON.stringify(receipt.id)},"summary":${JSON.stringify(receipt.summary)}}`;
      const seq = head.seq + 1;
      const row = `{"at":${NOW},"detail":${detail},"kind":"commit","prev":"${head.hash}","seq":${seq}}`;
      link = { seq, prev: head.hash, hash: createHash('sha256').update(row).digest('base64url') };
    }
    lap('trail');
    tx.immediate(stored, reserved, receiptText, link.seq, link.prev, link.hash);
    if (trail) head = { seq: link.seq, hash: link.hash };
    lap('tx');
  }

  return { prepare, commit, close: () => db.close() };
}

/** Random bytes drawn from the system a pool at a time (one draw per call costs ~40 µs here). */
const POOL_BYTES = 4096;
let pool = randomBytes(POOL_BYTES);
let used = 0;
function random(length: number): Buffer {
  if (used + length > POOL_BYTES) {
    pool = randomBytes(POOL_BYTES);
    used = 0;
  }
  used += length;
  return pool.subarray(used - length, used);
}

/** §6.3 `can`: an exact name, or a prefix followed by `*`. */
function matches(pattern: string, capability: string): boolean {
  return pattern.endsWith('*')
    ? capability.startsWith(pattern.slice(0, -1))
    : pattern === capability;
}

/** Sixteenths of a second in six base64url digits, as the service's sortable ids begin. */
function sortedTime(): string {
  const digits = '-0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ_abcdefghijklmnopqrstuvwxyz';
  let rest = Math.floor(Date.now() / 62.5);
  let out = '';
  for (let i = 0; i < 6; i++) {
    out = (digits[rest % 64] as string) + out;
    rest = Math.floor(rest / 64);
  }
  return out;
}

/**
 * One commit row per COMMIT, keyed by its trail seq (or a rowid without the trail), unique by
 * proposal (§4.4: once), with the §E3 chain fields and the head's mark beside the receipt; the
 * spend totals (§6.3).
 */
function openDatabase(file: string, synchronous: SqliteSynchronous): Database.Database {
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.pragma(`synchronous = ${synchronous}`);
  db.exec(`
    CREATE TABLE commits (
      seq INTEGER PRIMARY KEY,
      proposal_id TEXT NOT NULL UNIQUE,
      holder TEXT NOT NULL,
      principal TEXT NOT NULL,
      reserved TEXT NOT NULL,
      receipt TEXT NOT NULL,
      prev TEXT,
      hash TEXT,
      last INTEGER
    );
    CREATE TABLE spend (block_id TEXT PRIMARY KEY, total INTEGER NOT NULL);
  `);
  return db;
}
