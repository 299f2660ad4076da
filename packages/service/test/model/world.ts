import {
  type Caveat,
  type Consent,
  consentGrant,
  encodeGrant,
  type KeyPair,
  keyPairFromSeed,
  proofTarget,
  publicKeyString,
  type Request,
  type Risk,
  signProof,
  type Verb,
} from '@parley/protocol';
import type { Service, Store } from '../../src/index.js';
import { grant } from '../harness.js';
import { type Outbox, SERVICE_ID, shopService } from './catalog.js';
import type { ModelGrant, Party } from './grant-rules.js';
import { type Credentials, type IntentFacts, ReferenceModel } from './reference-model.js';

/** The model's clock starts here (unix seconds). */
export const T0 = 1_790_000_000;

const PARTIES: readonly Party[] = ['boss', 'rival', 'mallory', 'agent', 'other'];

/** Fixed keys: the test's principals and agents. */
export async function partyKeys(): Promise<Record<Party, KeyPair>> {
  const pairs = await Promise.all(
    PARTIES.map((_, i) => keyPairFromSeed(new Uint8Array(32).fill(40 + i))),
  );
  return Object.fromEntries(PARTIES.map((p, i) => [p, pairs[i]])) as Record<Party, KeyPair>;
}

/** The caveats of the agent's own grant from its principal, drawn per run (§6.3). */
export type Policy = {
  can: string[];
  verbs?: Verb[];
  risk?: Risk;
  per?: number;
  spend?: number;
  /** Seconds after T0 when the grant expires. */
  exp?: number;
};

/** The grants of every run: the agent's own, and ones that must not work where they don't. */
export function grantsOf(policy: Policy): ModelGrant[] {
  const own: Caveat[] = [{ svc: [SERVICE_ID] }, { can: policy.can }];
  if (policy.verbs !== undefined) own.push({ verbs: policy.verbs });
  if (policy.risk !== undefined) own.push({ risk: policy.risk });
  if (policy.per !== undefined) own.push({ per: { max: policy.per, currency: 'USD' } });
  if (policy.spend !== undefined) own.push({ spend: { max: policy.spend, currency: 'USD' } });
  if (policy.exp !== undefined) own.push({ exp: T0 + policy.exp });
  const broad: Caveat[] = [{ svc: [SERVICE_ID] }, { can: ['*'] }];
  return [
    { name: 'main', iss: 'boss', sub: 'agent', caveats: own },
    // Another trusted principal: its grant is valid, but not for the boss's proposals (§4.4).
    { name: 'rival', iss: 'rival', sub: 'agent', caveats: broad },
    // An untrusted principal (§6.4).
    { name: 'stolen', iss: 'mallory', sub: 'agent', caveats: broad },
    // The boss's other agent: may undo the boss's receipts (§4.5), never commit the agent's (§4.4).
    { name: 'peer', iss: 'boss', sub: 'other', caveats: broad },
  ];
}

/** Counts for the report: sequences, steps and what the replies were. */
export type Tally = {
  sequences: number;
  /** Commands run, clock moves and sweeps included. */
  commands: number;
  /** Replies compared with the model. */
  steps: number;
  kinds: Record<string, number>;
};

export function newTally(): Tally {
  return { sequences: 0, commands: 0, steps: 0, kinds: {} };
}

/** The real side of a run: the service, its store and clock, the signed tokens. */
export class World {
  readonly tokens = new Map<string, string>();
  /** Auto INTENT frames sent, for repeats (§4.3.1), with the facts the model was given. */
  readonly autoFrames: { request: Request; facts: IntentFacts }[] = [];
  readonly outbox: Outbox = { sent: [], recalled: [] };
  readonly service: Service;
  now = T0;
  #frames = 0;

  private constructor(
    readonly store: Store,
    readonly keys: Record<Party, KeyPair>,
    readonly tally: Tally,
  ) {
    this.service = shopService({
      store,
      trust: ['boss', 'rival'].map((p) => publicKeyString(keys[p as Party])),
      clock: () => this.now,
      outbox: this.outbox,
    });
  }

  /** A world on `store` and the model that predicts it, with this run's grants signed. */
  static async open(
    store: Store,
    keys: Record<Party, KeyPair>,
    policy: Policy,
    tally: Tally,
    instances: number,
  ): Promise<{ model: ReferenceModel; real: World }> {
    const world = new World(store, keys, tally);
    const grants = grantsOf(policy);
    for (const g of grants) await world.sign(g);
    const model = new ReferenceModel(
      T0,
      grants,
      new Set(['boss', 'rival']),
      (p) => publicKeyString(keys[p]),
      instances,
    );
    return { model, real: world };
  }

  async sign(model: ModelGrant): Promise<void> {
    const token = await grant(this.keys[model.iss], this.keys[model.sub], model.caveats, T0);
    this.tokens.set(model.name, token);
  }

  /** §6.6: the boss approves a consent request; the token is the model's grant `name`. */
  async approve(consent: Consent, name: string): Promise<ModelGrant> {
    const grant = await consentGrant(this.keys.boss, consent, publicKeyString(this.keys.agent));
    this.tokens.set(name, encodeGrant(grant));
    return { name, iss: 'boss', sub: 'agent', caveats: grant[0].p.caveats as Caveat[] };
  }

  nextFrameId(): string {
    return `f${(this.#frames++).toString(36)}`;
  }

  /** A request frame with these credentials: grants by name, a proof signed at `ts` (§6.5). */
  async frame(
    body: { verb: Verb; id: string; [field: string]: unknown },
    creds: Credentials,
  ): Promise<Request> {
    const request = { parley: 1, ...body } as unknown as Request;
    if (creds.grants.length > 0) {
      request.grants = creds.grants.map((name) => this.tokens.get(name) as string);
    }
    if (creds.signer !== null) {
      request.proof = await signProof(this.keys[creds.signer], {
        aud: SERVICE_ID,
        verb: request.verb,
        target: proofTarget(request),
        ts: creds.ts,
      });
    }
    return request;
  }
}
