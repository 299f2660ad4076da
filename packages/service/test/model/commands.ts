import type { FinalReply, Request, Risk } from '@parley/protocol';
import fc from 'fast-check';
import { expect } from 'vitest';
import { CAPABILITIES, type PlanParams } from './catalog.js';
import { expectReply } from './compare.js';
import type { Party } from './grant-rules.js';
import type { Credentials, ReferenceModel, Step } from './reference-model.js';
import type { World } from './world.js';

/**
 * The commands of a model-based run (fast-check `fc.commands`): each builds a request from the
 * model's state, asks the model what the service must answer, sends it through the dispatcher
 * (`service.handle`) and compares. Targets are picks counted from the newest proposal or
 * receipt, so retries and replays of recent work are common.
 */

type Cmd = fc.AsyncCommand<ReferenceModel, World>;

/** Who signs and which grants ride along; the agent with its own grant most of the time. */
const credentialsArb: fc.Arbitrary<{ signer: Party | null; grants: string[] }> = fc.oneof(
  {
    weight: 20,
    arbitrary: fc.constant({ signer: 'agent' as Party | null, grants: ['main'] as string[] }),
  },
  ...(
    [
      ['agent', ['rival']],
      ['agent', ['stolen']],
      ['agent', ['stolen', 'main']],
      ['agent', ['main', 'rival']],
      ['agent', ['rival', 'main']],
      ['agent', []],
      [null, []],
      [null, ['main']],
      ['other', ['peer']],
      ['other', ['main']],
    ] as const
  ).map(([signer, grants]) => ({
    weight: 1,
    arbitrary: fc.constant({ signer: signer as Party | null, grants: [...grants] as string[] }),
  })),
);

/** Proof ts relative to the service clock: mostly now, sometimes at or past §6.5's 300 s. */
const skewArb = fc.oneof(
  { weight: 6, arbitrary: fc.constant(0) },
  { weight: 4, arbitrary: fc.constantFrom(-300, -120, 120, 250, 300) },
  { weight: 1, arbitrary: fc.constantFrom(-301, 301) },
);

/** A pick counted from the newest: the newest most often (retries follow their request). */
const pickArb = fc.oneof(
  { weight: 2, arbitrary: fc.constant(0) },
  { weight: 3, arbitrary: fc.nat({ max: 5 }) },
);

function picked<T>(list: readonly T[], pick: number): T | undefined {
  return list.length === 0 ? undefined : list[list.length - 1 - (pick % list.length)];
}

async function check(world: World, request: Request, step: Step, label: string): Promise<void> {
  const reply: FinalReply = await world.service.handle(request);
  expect(reply.re, label).toBe(request.id);
  expectReply(reply, step.expected, label);
  const { parley: _p, id: _i, re: _r, ...body } = reply;
  step.learn(body as never);
  world.tally.steps++;
  const e = step.expected;
  const kind =
    e.kind === 'ERROR'
      ? `${request.verb} ${e.code}`
      : e.kind === 'RECEIPT' && e.auto
        ? 'auto RECEIPT'
        : e.kind === 'REPLAY' || e.kind === 'SAME'
          ? `${request.verb} replay${e.kind === 'REPLAY' && e.undone !== undefined ? ' undone' : ''}`
          : e.kind;
  world.tally.kinds[kind] = (world.tally.kinds[kind] ?? 0) + 1;
}

const creds = (c: { signer: Party | null; grants: string[] }, ts: number): Credentials => ({
  ...c,
  ts,
});

class Intent implements Cmd {
  constructor(
    readonly c: { signer: Party | null; grants: string[] },
    readonly skew: number,
    readonly auto: boolean,
    readonly capability: (typeof CAPABILITIES)[number],
    readonly params: PlanParams,
  ) {}
  check = () => true;
  async run(model: ReferenceModel, world: World): Promise<void> {
    const facts = {
      ...creds(this.c, model.now + this.skew),
      frameId: world.nextFrameId(),
      auto: this.auto,
      capability: this.capability,
      params: this.params,
    };
    const body = { verb: 'INTENT' as const, id: facts.frameId, capability: this.capability };
    const request = await world.frame(
      { ...body, params: this.params, ...(this.auto ? { auto: true } : {}) },
      facts,
    );
    if (this.auto) world.autoFrames.push({ request, facts });
    await check(world, request, model.intent(facts), this.toString());
  }
  toString = () =>
    `INTENT${this.auto ? ' auto' : ''} ${this.capability} ${JSON.stringify(this.params)} by ${this.c.signer} ${this.c.grants} skew ${this.skew}`;
}

/** §4.3.1: the same auto frame again, byte for byte (a retry after a lost reply). */
class RepeatAuto implements Cmd {
  constructor(readonly pick: number) {}
  check = () => true;
  async run(model: ReferenceModel, world: World): Promise<void> {
    const frame = picked(world.autoFrames, this.pick);
    if (frame === undefined) return;
    await check(world, frame.request, model.intent(frame.facts), this.toString());
  }
  toString = () => `repeat auto frame ${this.pick}`;
}

class Commit implements Cmd {
  constructor(
    readonly pick: number,
    readonly hashOk: boolean,
    readonly c: { signer: Party | null; grants: string[] },
    readonly skew: number,
    /** Reuse an earlier consent token (§6.6: bound to one proposal). */
    readonly consent: number | null,
  ) {}
  check = () => true;
  async run(model: ReferenceModel, world: World): Promise<void> {
    const id = picked(model.offered, this.pick) ?? 'p_unknown';
    const hash = model.proposals.get(id)?.proposal.hash ?? 'unknown';
    const grants = [...this.c.grants];
    const consents = [...world.tokens.keys()].filter((n) => n.startsWith('consent-'));
    const reuse = this.consent === null ? undefined : picked(consents, this.consent);
    if (reuse !== undefined) grants.push(reuse);
    const facts = {
      ...creds({ ...this.c, grants }, model.now + this.skew),
      proposal: id,
      hash: this.hashOk ? hash : `x${hash}`,
    };
    const request = await world.frame(
      { verb: 'COMMIT', id: world.nextFrameId(), proposal: id, hash: facts.hash },
      facts,
    );
    await check(world, request, model.commit(facts), `${this.toString()} (${id})`);
  }
  toString = () =>
    `COMMIT ${this.pick}${this.hashOk ? '' : ' wrong hash'} by ${this.c.signer} ${this.c.grants}${this.consent === null ? '' : ` +consent ${this.consent}`} skew ${this.skew}`;
}

/** §6.6: the principal approves a consent request, and the agent commits with the token. */
class Approve implements Cmd {
  constructor(
    readonly pick: number,
    readonly alone: boolean,
  ) {}
  check = () => true;
  async run(model: ReferenceModel, world: World): Promise<void> {
    const consent = picked(model.consents, this.pick);
    if (consent === undefined) return;
    const grant = await world.approve(consent, `consent-${world.tokens.size}`);
    model.addGrant(grant);
    const grants = this.alone ? [grant.name] : ['main', grant.name];
    const facts = {
      ...creds({ signer: 'agent', grants }, model.now),
      proposal: consent.proposal,
      hash: consent.hash,
    };
    const request = await world.frame(
      { verb: 'COMMIT', id: world.nextFrameId(), proposal: consent.proposal, hash: consent.hash },
      facts,
    );
    await check(world, request, model.commit(facts), this.toString());
  }
  toString = () => `approve consent ${this.pick} and COMMIT${this.alone ? ' with it alone' : ''}`;
}

class Undo implements Cmd {
  constructor(
    readonly pick: number,
    readonly c: { signer: Party | null; grants: string[] },
    readonly skew: number,
  ) {}
  check = () => true;
  async run(model: ReferenceModel, world: World): Promise<void> {
    const receipt = picked(model.receiptOrder, this.pick) ?? 'r_unknown';
    const facts = { ...creds(this.c, model.now + this.skew), receipt };
    const request = await world.frame({ verb: 'UNDO', id: world.nextFrameId(), receipt }, facts);
    await check(world, request, model.undo(facts), `${this.toString()} (${receipt})`);
  }
  toString = () => `UNDO ${this.pick} by ${this.c.signer} ${this.c.grants} skew ${this.skew}`;
}

/** The clock moves: within and across the proof window, expiry, the auto replay window, undo. */
class Advance implements Cmd {
  constructor(readonly seconds: number) {}
  check = () => true;
  async run(model: ReferenceModel, world: World): Promise<void> {
    model.advance(this.seconds);
    world.now += this.seconds;
  }
  toString = () => `advance ${this.seconds} s`;
}

/** The clock moves to a time where a rule flips (an expiry, a window's end), or one past it. */
class AdvanceToEdge implements Cmd {
  constructor(
    readonly pick: number,
    readonly past: 0 | 1,
  ) {}
  check = () => true;
  async run(model: ReferenceModel, world: World): Promise<void> {
    const edge = picked(model.edges(), this.pick);
    if (edge === undefined || edge + this.past <= model.now) return;
    const seconds = edge + this.past - model.now;
    model.advance(seconds);
    world.now += seconds;
  }
  toString = () => `advance to edge ${this.pick}${this.past === 1 ? ' + 1 s' : ''}`;
}

/**
 * A sweep of expired records, as the service runs every minute, by this instance or by another
 * on the same store whose clock runs up to 600 s ahead (§4.3.1: the replay memory must outlive
 * every proof that could carry the frame, on any instance).
 */
class Sweep implements Cmd {
  constructor(readonly ahead: number) {}
  check = () => true;
  async run(model: ReferenceModel, world: World): Promise<void> {
    model.sweep(model.now + this.ahead);
    await world.store.sweep(world.now + this.ahead);
  }
  toString = () => `sweep at now + ${this.ahead} s`;
}

const riskArb = fc.constantFrom<Risk>('low', 'low', 'medium', 'high');

const paramsArb: fc.Arbitrary<PlanParams> = fc.record({
  amount: fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 600 })),
  risk: riskArb,
  window: fc.constantFrom(0, 60, 600, 3600),
  alternatives: fc.constantFrom(1, 1, 2),
  ttl: fc.constantFrom(30, 300, 600, 1200),
});

/** Every command, weighted toward the commit path. */
export const commandArbs: fc.Arbitrary<Cmd>[] = [
  fc
    .tuple(credentialsArb, skewArb, fc.boolean(), fc.constantFrom(...CAPABILITIES), paramsArb)
    .map(([c, skew, auto, capability, params]) => new Intent(c, skew, auto, capability, params)),
  fc
    .tuple(credentialsArb, skewArb, fc.constantFrom(...CAPABILITIES), paramsArb)
    .map(([c, skew, capability, params]) => new Intent(c, skew, true, capability, params)),
  pickArb.map((pick) => new RepeatAuto(pick)),
  fc
    .tuple(
      pickArb,
      fc.oneof(
        { weight: 9, arbitrary: fc.constant(true) },
        { weight: 1, arbitrary: fc.constant(false) },
      ),
      credentialsArb,
      skewArb,
      fc.oneof({ weight: 5, arbitrary: fc.constant(null) }, { weight: 1, arbitrary: pickArb }),
    )
    .map(([pick, hashOk, c, skew, consent]) => new Commit(pick, hashOk, c, skew, consent)),
  fc
    .tuple(pickArb, credentialsArb, skewArb)
    .map(([pick, c, skew]) => new Commit(pick, true, c, skew, null)),
  fc.tuple(pickArb, fc.boolean()).map(([pick, alone]) => new Approve(pick, alone)),
  fc.tuple(pickArb, credentialsArb, skewArb).map(([pick, c, skew]) => new Undo(pick, c, skew)),
  fc
    .constantFrom(1, 30, 59, 61, 250, 301, 301, 450, 601, 901, 1200, 3601)
    .map((s) => new Advance(s)),
  fc
    .tuple(pickArb, fc.constantFrom<0 | 1>(0, 1))
    .map(([pick, past]) => new AdvanceToEdge(pick, past)),
  fc.constantFrom(0, 300, 600, 600).map((ahead) => new Sweep(ahead)),
];
