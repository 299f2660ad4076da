import {
  createSession,
  type PyObject,
  partySheet,
  runConsensusAsync,
  SigningAgent,
  sheetToParty,
} from '@parley/consensus';
import { keyPairFromSeed } from '@parley/protocol';
import { CaseError } from './errors.js';
import { fromHex, toHex } from './hex.js';
import { MAX_ROUNDS } from './limits.js';
import { notifyParties } from './outbox.js';
import { buildReceipt } from './receipt-of.js';
import type { CaseRecord, Clock, Proposal } from './record.js';
import { privateOf, step } from './step.js';

/**
 * Decides the round over masked verdicts (module 06): each party's own delegate, holding only
 * that party's confirmed sheet and key, signs a `verdict/0.2` per option in a session bound to
 * the roster and the options; egalitarian max-min picks. The coordinator's side of this
 * function sees the verdicts, never a sheet. A feasible option becomes the one proposal; none
 * is an honest deadlock: the case says so, and rounds remaining, parties may revise.
 */
export async function decideRound(record: CaseRecord, clock: Clock): Promise<CaseRecord> {
  const { shared } = record;
  if (!shared.parties.every((p) => p.sheet === 'confirmed')) {
    throw new CaseError('wrong_state', 'a round starts only when every party has confirmed');
  }
  const roster = Object.fromEntries(shared.parties.map((p) => [p.name, p.pubkey_hex]));
  const session = createSession(roster, toHex(clock.random(32)), shared.options);
  const agents = await Promise.all(
    shared.parties.map(async (p) => {
      const own = privateOf(record, p.id);
      if (own.sheet === null) throw new CaseError('wrong_state', 'a confirmed sheet is missing');
      const key = await keyPairFromSeed(fromHex(own.key_seed));
      return new SigningAgent<PyObject>(p.name, partySheet(sheetToParty(own.sheet)), key, {
        session,
      });
    }),
  );
  const result = await runConsensusAsync(agents, shared.options);
  const proposal: Proposal = {
    round: shared.round,
    status: result.status,
    decision: result.decision,
    transcript: result.transcript.toDict(),
    transcript_sha256: result.transcript.hash(),
    session,
  };
  const parties = shared.parties.map((p) => ({ ...p, answer: 'none' as const }));
  if (result.status === 'agreed') {
    return step(
      record,
      { actor: 'engine', type: 'proposed', clock },
      {
        state: 'ratifying',
        proposal,
        acceptances: [],
        parties,
        outbox: notifyParties(shared, 'proposal_ready', proposal.transcript_sha256, clock),
      },
    );
  }
  const final = shared.round >= MAX_ROUNDS;
  const ended = { ...shared, proposal, acceptances: [], parties };
  return step(
    record,
    { actor: 'engine', type: final ? 'deadlocked' : 'deadlock_round', clock },
    {
      state: final ? 'deadlocked' : 'revising',
      proposal,
      acceptances: [],
      parties,
      receipt: final ? await buildReceipt(ended) : null,
      outbox: notifyParties(shared, 'deadlock', proposal.transcript_sha256, clock),
    },
  );
}
