import type { CallToolResult } from '@modelcontextprotocol/server';
import {
  type PyObject,
  pyDumps,
  RULES,
  type Rule,
  readSpec,
  runConsensus,
  specAgents,
} from '@parley/consensus';
import { textResult, toolError } from '../tool-result.js';
import { pyArgument } from './py-arguments.js';

export const DECIDE_TOOL = 'parley_decide';

export const DECIDE_DESCRIPTION = [
  "Run a Parley consensus decision: every party's red lines (hard constraints) are checked in",
  'code and reject options outright; among the options acceptable to everyone, the egalitarian',
  'max-min rule picks the one whose least-happy party is happiest (total welfare breaks ties);',
  'if no option is acceptable to all, the result is an honest deadlock.',
  'Input: spec = {"title": str, "options": [{...}, ...], "parties": [{"owner": str,',
  '"hard": [{"attr", "op": one of == != < <= > >= in not_in, "value"}],',
  '"utility": [{"attr", "weight"?, "prefer": value} or {"attr", "weight"?, "direction":',
  '"higher"|"lower", "lo", "hi"}]}]} (the recipe JSON format); rule = "egalitarian" (default).',
  'Output: status ("agreed"|"deadlock"), decision (the option or null), transcript (the masked',
  'verdicts) and transcript_sha256. Keep the hash apart from the transcript; check them later',
  'with parley_verify_receipt.',
].join(' ');

export const DECIDE_INPUT = {
  type: 'object',
  properties: {
    spec: {
      type: 'object',
      description: 'The decision: {title, options, parties}, as in the recipe files.',
    },
    rule: {
      type: 'string',
      enum: [...RULES],
      description: 'The selection rule; only "egalitarian" (max-min) exists.',
    },
  },
  required: ['spec'],
  additionalProperties: false,
} as const;

export interface DecideArguments {
  spec: Record<string, unknown>;
  rule?: string;
}

/**
 * `parley_decide`: the same status, decision, transcript and transcript_sha256 as
 * `parley decide --json`, as Python's json.dumps prints them.
 */
export function decideTool(args: DecideArguments, raw: PyObject | undefined): CallToolResult {
  const rule = args.rule ?? 'egalitarian';
  if (!(RULES as readonly string[]).includes(rule)) {
    return toolError(`Unknown rule ${JSON.stringify(rule)}; use one of: ${RULES.join(', ')}.`);
  }
  const spec = readSpec(pyArgument(raw, 'spec', args.spec));
  const result = runConsensus(specAgents(spec), spec.options, rule as Rule);
  const text = pyDumps({
    status: result.status,
    decision: result.decision,
    transcript: result.transcript.toDict(),
    transcript_sha256: result.transcript.hash(),
  });
  return textResult(text, JSON.parse(text) as Record<string, unknown>);
}
