/**
 * The least a service must do to authorize a COMMIT with a one-block grant it has not seen
 * before, done raw (issue 27): §6.5 the proof, §6.2 and §6.4 the token and its signature, §6.3
 * every caveat, in plain node:crypto and `JSON.parse`, with nothing of @parley/protocol's: no
 * promise, no port, no chain cache, no error text, no bound on a hostile token's nesting (a guard
 * the spec does not ask for), and the token's bytes read as UTF-8 without the fatal check (a
 * token whose bytes are not UTF-8 then fails its signature instead of its decoding). What is left
 * is what any implementation pays beside its two verifies, so protocol.bench.ts can say how much
 * of the gap to its limit is ours.
 */
import { createHash, verify } from 'node:crypto';
import { publicKeyObject } from './raw-ed25519-key.js';

export type RequiredContext = {
  service: string;
  capability: string;
  now: number;
  hash: string;
  cost: { amount: number; currency: string } | null;
  risk: 'low' | 'medium' | 'high';
  spent: Readonly<Record<string, number>>;
  trusted: ReadonlySet<string>;
};

export type RequiredProof = { key: string; ts: number; sig: string };

function verified(key: string, text: string, signature: unknown): boolean {
  if (typeof signature !== 'string') return false;
  const sig = Buffer.from(signature, 'base64url');
  return sig.length === 64 && verify(null, Buffer.from(text), publicKeyObject(key), sig);
}

/** §10, for the values a grant payload holds: keys sorted by UTF-16 code unit, no spaces. */
function canonicalText(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalText).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const record = value as Record<string, unknown>;
    const members = Object.keys(record)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${canonicalText(record[key])}`);
    return `{${members.join(',')}}`;
  }
  if (typeof value === 'number' && !Number.isSafeInteger(value)) throw new Error('not an integer');
  return JSON.stringify(value);
}

const RISK_RANK = { low: 0, medium: 1, high: 2 } as const;

const isLimit = (v: unknown): v is { max: number; currency: string } =>
  v !== null &&
  typeof v === 'object' &&
  Object.keys(v).length === 2 &&
  Number.isSafeInteger((v as { max: unknown }).max) &&
  typeof (v as { currency: unknown }).currency === 'string';

const isStringList = (v: unknown): v is string[] =>
  Array.isArray(v) && v.every((x) => typeof x === 'string');

/** §6.3 for a COMMIT: whether one caveat holds; a malformed or unknown one does not. */
function satisfied(caveat: unknown, ctx: RequiredContext, blockId: string): boolean {
  if (caveat === null || typeof caveat !== 'object' || Array.isArray(caveat)) return false;
  const names = Object.keys(caveat);
  if (names.length !== 1) return false;
  const name = names[0] as string;
  const value = (caveat as Record<string, unknown>)[name];
  switch (name) {
    case 'svc':
      return isStringList(value) && value.includes(ctx.service);
    case 'verbs':
      return isStringList(value) && value.includes('COMMIT');
    case 'can':
      return (
        isStringList(value) &&
        value.some((p) =>
          p.endsWith('*') ? ctx.capability.startsWith(p.slice(0, -1)) : p === ctx.capability,
        )
      );
    case 'exp':
      return Number.isSafeInteger(value) && ctx.now < (value as number);
    case 'nbf':
      return Number.isSafeInteger(value) && ctx.now >= (value as number);
    case 'per':
      return (
        isLimit(value) &&
        (ctx.cost === null ||
          (ctx.cost.currency === value.currency && ctx.cost.amount <= value.max))
      );
    case 'spend':
      return (
        isLimit(value) &&
        (ctx.cost === null ||
          (ctx.cost.currency === value.currency &&
            (ctx.spent[blockId] ?? 0) + ctx.cost.amount <= value.max))
      );
    case 'risk':
      return (
        typeof value === 'string' &&
        Object.hasOwn(RISK_RANK, value) &&
        RISK_RANK[ctx.risk] <= RISK_RANK[value as keyof typeof RISK_RANK]
      );
    case 'only':
      return typeof value === 'string' && value === ctx.hash;
    default:
      return false;
  }
}

/**
 * §6.5, §6.4, §6.3: authorizes a COMMIT of `ctx.hash` by a one-block grant token and its proof;
 * returns the block id the spend is reserved against, or throws.
 */
export function requiredAuthorize(token: string, proof: RequiredProof, ctx: RequiredContext) {
  // §6.5: the proof first, as a service checks it before the grant.
  if (!Number.isSafeInteger(proof.ts) || Math.abs(ctx.now - proof.ts) > 300) {
    throw new Error('proof ts');
  }
  const signed = `{"aud":${JSON.stringify(ctx.service)},"target":${JSON.stringify(ctx.hash)},"ts":${proof.ts},"verb":"COMMIT"}`;
  if (!verified(proof.key, signed, proof.sig)) throw new Error('proof signature');
  // §6.2: "pg1." + b64url(utf8(canonical(blocks))).
  if (!token.startsWith('pg1.')) throw new Error('grant prefix');
  const blocks: unknown = JSON.parse(Buffer.from(token.slice(4), 'base64url').toString('utf8'));
  if (!Array.isArray(blocks) || blocks.length !== 1) throw new Error('one block expected');
  const root = blocks[0] as { p?: Record<string, unknown>; s?: unknown };
  const p = root.p;
  if (p === null || typeof p !== 'object' || Array.isArray(p)) throw new Error('payload');
  const { iss, sub, caveats } = p;
  // §6.4: a trusted root, its signature over the canonical payload, the holder is the prover.
  if (typeof iss !== 'string' || !ctx.trusted.has(iss)) throw new Error('untrusted');
  if (typeof p.nonce !== 'string' || !Number.isSafeInteger(p.iat)) throw new Error('root fields');
  if (!verified(iss, canonicalText(p), root.s)) throw new Error('grant signature');
  if (sub !== proof.key) throw new Error('holder');
  // §6.2: the block id, which §6.3's spend is counted against.
  const blockId = createHash('sha256')
    .update(root.s as string)
    .digest('base64url');
  if (!Array.isArray(caveats)) throw new Error('caveats');
  for (const caveat of caveats) {
    if (!satisfied(caveat, ctx, blockId)) throw new Error('caveat');
  }
  return blockId;
}
