import { Agent } from '../decision/agent.js';
import { type ConsensusResult, runConsensus } from '../decision/run.js';
import type { PyObject } from '../py-json/value.js';
import { partySheet } from './compile.js';
import type { DecisionSpec } from './types.js';

/** One local agent per party, in the spec's order. */
export function specAgents(spec: DecisionSpec): Agent<PyObject>[] {
  return spec.parties.map((p) => new Agent(p.owner, partySheet(p)));
}

/** Runs a validated spec: every party's agent considers every option, max-min picks. */
export function decide(spec: DecisionSpec): ConsensusResult<PyObject> {
  return runConsensus(specAgents(spec), spec.options);
}
