import type { AsyncAgentLike } from '../decision/agent.js';
import { type ConsensusResult, runConsensusAsync } from '../decision/run.js';
import type { Verdict } from '../decision/verdict.js';
import { ConsensusError } from '../errors.js';
import { isPyObject, type PyObject, unhashable } from '../py-json/value.js';
import { makeReceipt, type Receipt } from '../receipt/receipt.js';
import { rosterHex } from '../signing/keys.js';
import { VERDICT_V1, VERDICT_V2, type VerdictKind } from '../signing/payloads.js';
import { createSession, type Session } from '../signing/session.js';
import { hashOption, hashOptionText } from '../signing/session-options.js';
import { MAX_OPTIONS } from '../spec/limits.js';
import { AskedOption } from './asked-option.js';
import type { DelegateConnections } from './delegate-connections.js';
import { DelegateError, type DelegateFailure } from './delegate-failure.js';
import {
  DEFAULT_CONCURRENCY,
  RemoteAgent,
  type RemoteAgentOptions,
  sessionRequest,
} from './remote-agent.js';
import {
  MAX_BODY,
  MAX_SESSION_BODY,
  PROTOCOL_V1,
  PROTOCOL_V2,
  type Protocol,
  wireText,
} from './wire.js';

/** Where a delegate answers, and the token it asks for. */
export interface DelegateAddress {
  readonly url: string;
  readonly token?: string;
}

export interface RunAcrossDelegatesOptions {
  /** Shown in the receipt. */
  readonly title?: string;
  /**
   * Owner -> public key (hex or "ed25519:…") you trust: every card must match it, and every
   * owner on it must have a delegate. Without it the cards' own keys are recorded (a claim).
   */
  readonly roster?: Readonly<Record<string, string>>;
  /** The deadline of each request, in milliseconds (default 5000). */
  readonly timeoutMs?: number;
  /** Requests in flight per delegate (default 8). */
  readonly concurrency?: number;
  /** `parley/0.1` forces plain `verdict/0.1`, even when every delegate speaks `parley/0.2`. */
  readonly protocol?: Protocol;
  /**
   * Owners (true: every one) whose verdicts must be `verdict/0.2` in this run's session: one
   * whose card offers no session fails the run instead of answering `verdict/0.1`, which a
   * stand-in holding old signed verdicts could replay.
   */
  readonly requireSession?: boolean | readonly string[];
  /** The `parley/0.2` session nonce (default: 32 fresh random bytes). */
  readonly nonce?: string;
  /**
   * Connections kept across decisions, for a coordinator that decides again and again: this run
   * reuses them and leaves them open (see DelegateConnections). Without them the run opens its
   * own and closes them when it ends.
   */
  readonly connections?: DelegateConnections;
  /** Told after each verdict arrives: how many of how many. */
  readonly onProgress?: (done: number, total: number) => void;
}

/** One delegate as its card presented it. */
export interface DelegateInfo {
  readonly owner: string;
  readonly url: string;
  readonly pubkey_hex: string | null;
  readonly protocols: readonly string[];
}

/**
 * A decision across delegates, or the delegates that failed it. A failure is never a deadlock:
 * a deadlock says no option is acceptable to everyone, and only verdicts can say that.
 */
export type NetworkOutcome =
  | {
      readonly ok: true;
      readonly result: ConsensusResult<PyObject>;
      readonly receipt: Receipt;
      /**
       * `parley/0.2` when every verdict is bound to this session, else `parley/0.1` (the
       * receipt's `verdict_kinds` says which owners' are).
       */
      readonly protocol: Protocol;
      readonly delegates: readonly DelegateInfo[];
    }
  | {
      readonly ok: false;
      readonly failures: readonly DelegateFailure[];
      readonly delegates: readonly DelegateInfo[];
    };

/**
 * Decides across delegates in other processes: discovers each card, checks the cards against the
 * roster, opens a `parley/0.2` session fixed to these options with every delegate that speaks it
 * (when every delegate signs; the others answer `verdict/0.1`, and the receipt says whose are
 * which), asks every delegate about every option (bounded in time and in flight), and lets the
 * engine pick exactly as it does in process: same transcript, same hash. Options must be JSON
 * objects, as the delegates require. Unusable options or roster throw a ConsensusError; a
 * delegate that fails is reported by name in the outcome.
 */
export async function runAcrossDelegates(
  addresses: readonly DelegateAddress[],
  options: readonly PyObject[],
  settings: RunAcrossDelegatesOptions = {},
): Promise<NetworkOutcome> {
  checkOptions(options);
  if (addresses.length === 0) throw new ConsensusError('bad_value', 'no delegate to ask');
  const required = settings.requireSession ?? false;
  const requiresAny = required === true || (required !== false && required.length > 0);
  if (settings.protocol === PROTOCOL_V1 && requiresAny) {
    throw new ConsensusError(
      'bad_value',
      'parley/0.1 has no sessions, so it cannot give the session-bound verdicts you require',
    );
  }
  const pins = settings.roster === undefined ? null : pinsOf(settings.roster);
  const agentOptions: RemoteAgentOptions = {
    ...(settings.timeoutMs === undefined ? {} : { timeoutMs: settings.timeoutMs }),
    ...(settings.concurrency === undefined ? {} : { concurrency: settings.concurrency }),
    ...(settings.connections === undefined ? {} : { connections: settings.connections }),
  };
  const found = await Promise.allSettled(
    addresses.map((a) =>
      RemoteAgent.discover(a.url, {
        ...agentOptions,
        ...(a.token === undefined ? {} : { token: a.token }),
      }),
    ),
  );
  const agents = found.flatMap((f) => (f.status === 'fulfilled' ? [f.value] : []));
  const delegates = agents.map(infoOf);
  try {
    const failures = found.flatMap((f) => (f.status === 'rejected' ? [failureOf(f.reason)] : []));
    failures.push(...rosterFailures(agents, pins));
    if (failures.length > 0) return { ok: false, failures, delegates };

    const signed = agents.every((a) => a.pubkeyHex !== null);
    const bound =
      settings.protocol !== PROTOCOL_V1 && signed
        ? agents.filter((agent) => agent.speaksSessions)
        : [];
    const unbound = requiredOwners(agents, required).filter((a) => !bound.includes(a));
    if (unbound.length > 0) {
      return { ok: false, failures: unbound.map((a) => sessionFailure(a, signed)), delegates };
    }
    const session =
      bound.length === 0
        ? null
        : createSession(
            Object.fromEntries(agents.map((a) => [a.owner, a.pubkeyHex as string])),
            settings.nonce,
            options,
          );
    // Each option's texts are written once: its canonical text, for its hash and for every
    // verdict on it, and its `/consider` body, for every delegate asked about it.
    const asked = options.map((option) => new AskedOption(option));
    const hashes = asked.map(({ option, text }) =>
      text === undefined ? hashOption(option) : hashOptionText(text),
    );
    checkWireSize(asked, session, hashes);
    if (session !== null) {
      const opened = await Promise.allSettled(bound.map((a) => a.openSession(session, hashes)));
      const refused = opened.flatMap((o) => (o.status === 'rejected' ? [failureOf(o.reason)] : []));
      if (refused.length > 0) return { ok: false, failures: refused, delegates };
    }

    const watched = observed(agents, asked, settings.onProgress);
    let result: ConsensusResult<PyObject>;
    try {
      result = await runConsensusAsync(watched.agents, options, 'egalitarian', {
        concurrency: (settings.concurrency ?? DEFAULT_CONCURRENCY) * agents.length,
      });
    } catch (error) {
      if (!(error instanceof DelegateError)) throw error;
      return { ok: false, failures: watched.failures, delegates };
    }
    const roster =
      pins ??
      (signed ? Object.fromEntries(agents.map((a) => [a.owner, a.pubkeyHex as string])) : null);
    const receipt = makeReceipt(result, {
      ...(settings.title === undefined ? {} : { title: settings.title }),
      participants: agents.map((a) => a.owner),
      ...(roster === null ? {} : { roster }),
      ...(session === null ? {} : { session }),
      verdict_kinds: Object.fromEntries(agents.map((a) => [a.owner, kindOf(a)])),
    });
    return {
      ok: true,
      result,
      receipt,
      protocol: bound.length === agents.length ? PROTOCOL_V2 : PROTOCOL_V1,
      delegates,
    };
  } finally {
    for (const agent of agents) agent.close();
  }
}

/** What an agent's verdicts are in this run. */
function kindOf(agent: RemoteAgent): VerdictKind {
  if (agent.inSession) return VERDICT_V2;
  return agent.pubkeyHex === null ? 'unsigned' : VERDICT_V1;
}

/** The agents whose verdicts must be session-bound (true: every one). */
function requiredOwners(
  agents: readonly RemoteAgent[],
  required: boolean | readonly string[],
): RemoteAgent[] {
  if (required === true) return [...agents];
  if (required === false) return [];
  return agents.filter((a) => required.includes(a.owner));
}

function sessionFailure(agent: RemoteAgent, everyoneSigns: boolean): DelegateFailure {
  const detail = !agent.speaksSessions
    ? 'its card offers no parley/0.2 session, but you require its verdicts bound to one ' +
      '(a stand-in at its address, or a delegate that cannot bind them)'
    : everyoneSigns
      ? 'no session could be opened with it, but you require its verdicts bound to one'
      : 'no session can be opened: a delegate that does not sign takes part';
  return { owner: agent.owner, url: agent.url, kind: 'session', detail, option: null };
}

function infoOf(agent: RemoteAgent): DelegateInfo {
  return {
    owner: agent.owner,
    url: agent.url,
    pubkey_hex: agent.pubkeyHex,
    protocols: agent.protocols,
  };
}

function failureOf(reason: unknown): DelegateFailure {
  if (reason instanceof DelegateError) return reason.failure;
  throw reason;
}

/** Doubled owners, and with a roster: owners not on it, keys other than its, owners missing. */
function rosterFailures(
  agents: readonly RemoteAgent[],
  pins: Readonly<Record<string, string>> | null,
): DelegateFailure[] {
  const failures: DelegateFailure[] = [];
  const seen = new Set<string>();
  const fail = (owner: string, url: string | null, detail: string) =>
    failures.push({ owner, url, kind: 'roster', detail, option: null });
  for (const agent of agents) {
    if (seen.has(agent.owner))
      fail(agent.owner, agent.url, 'a second delegate answers as this owner');
    seen.add(agent.owner);
    if (pins === null) continue;
    if (!Object.hasOwn(pins, agent.owner)) fail(agent.owner, agent.url, 'is not on the roster');
    else if (agent.pubkeyHex === null)
      fail(agent.owner, agent.url, 'does not sign, but the roster pins a key');
    else if (pins[agent.owner] !== agent.pubkeyHex) {
      fail(agent.owner, agent.url, "its card's key is not the one the roster pins");
    }
  }
  for (const owner of Object.keys(pins ?? {})) {
    if (!seen.has(owner))
      fail(owner, null, 'is on the roster, but no delegate answered as this owner');
  }
  return failures;
}

/**
 * The agents as the engine sees them, counting answers for `onProgress` and keeping every
 * failure with the position of the option it was about (the engine stops at the first, but the
 * calls already in flight to other delegates may fail too, and each is reported). Each ask
 * carries the option's texts from `asked`, so no delegate's ask writes them again.
 */
function observed(
  agents: readonly RemoteAgent[],
  asked: readonly AskedOption[],
  onProgress: ((done: number, total: number) => void) | undefined,
): { agents: AsyncAgentLike<PyObject>[]; failures: DelegateFailure[] } {
  const failures: DelegateFailure[] = [];
  const failed = new Set<string>();
  const total = agents.length * asked.length;
  // The engine asks about the very objects `asked` was made from: each is found by identity.
  const positionOf = new Map(asked.map((a, i) => [a.option, i]));
  let done = 0;
  const wrapped = agents.map((agent) => ({
    owner: agent.owner,
    consider: async (option: PyObject): Promise<Verdict> => {
      const at = positionOf.get(option);
      try {
        const verdict = await agent.consider(
          at === undefined ? option : (asked[at] as AskedOption),
        );
        onProgress?.(++done, total);
        return verdict;
      } catch (error) {
        if (error instanceof DelegateError && !failed.has(agent.owner)) {
          failed.add(agent.owner);
          failures.push({ ...error.failure, option: at ?? -1 });
        }
        throw error;
      }
    },
  }));
  return { agents: wrapped, failures };
}

function checkOptions(options: readonly PyObject[]): void {
  if (options.length === 0)
    throw new ConsensusError('bad_value', 'there is no option to decide on');
  if (options.length > MAX_OPTIONS) {
    throw new ConsensusError('limit', `more than ${MAX_OPTIONS} options (${options.length})`);
  }
  for (const [i, option] of options.entries()) {
    if (!isPyObject(option)) {
      throw new ConsensusError(
        'bad_value',
        `option ${i + 1} is not a JSON object, as delegates require`,
      );
    }
    const problem = unhashable(option);
    if (problem !== null) {
      throw new ConsensusError('bad_value', `option ${i + 1} cannot be recorded: ${problem}`);
    }
  }
}

/**
 * Every option's `/consider` body must fit the delegates' cap, or each would answer 413, and the
 * `/session` body (the roster and every option's hash) must fit its own.
 */
function checkWireSize(
  asked: readonly AskedOption[],
  session: Session | null,
  hashes: readonly string[],
): void {
  for (const [i, option] of asked.entries()) {
    const body = option.body(session === null ? null : session.nonce);
    const bytes = Buffer.byteLength(body);
    if (bytes > MAX_BODY) {
      throw new ConsensusError(
        'limit',
        `option ${i + 1} is ${bytes} bytes on the wire; a delegate reads at most ${MAX_BODY}`,
      );
    }
  }
  if (session === null) return;
  const bytes = Buffer.byteLength(wireText(sessionRequest(session, hashes)));
  if (bytes > MAX_SESSION_BODY) {
    throw new ConsensusError(
      'limit',
      `the session request is ${bytes} bytes; a delegate reads at most ${MAX_SESSION_BODY}`,
    );
  }
}

function pinsOf(roster: Readonly<Record<string, string>>): Readonly<Record<string, string>> {
  try {
    return rosterHex(roster);
  } catch {
    throw new ConsensusError(
      'bad_value',
      'the roster holds a key that is not an Ed25519 public key',
    );
  }
}
