import type { CallToolResult } from '@modelcontextprotocol/client';
import { type JsonObject, type JsonValue, ParleyError } from '@parley/protocol';
import { keptResult } from '../calls/kept-result.js';
import { callRead } from '../calls/send-once.js';
import { digestOf } from '../calls/stable-json.js';
import { evaluateExpression } from '../config/argument-expression.js';
import type { PreconditionMapping } from '../config/gateway-config.js';
import type { Backend } from './backend.js';

/**
 * What a proposal keeps of its precondition read: which read, and the fingerprint of its answer.
 */
export type PreconditionRead = { tool: string; arguments: JsonObject; digest: string };

/**
 * Reads the state a call depends on: the configured read-only tool with arguments from the
 * call's. Its whole answer (an error too: a file that does not exist yet is a state) is
 * fingerprinted; `shown` is what the proposal's data shows of it.
 */
export async function readPrecondition(
  mapping: PreconditionMapping,
  callArguments: JsonObject,
  backend: Backend,
): Promise<{ read: PreconditionRead; shown: JsonValue }> {
  const args: JsonObject = {};
  for (const [name, expression] of mapping.arguments) {
    const value = evaluateExpression(expression, { arguments: callArguments });
    if (value !== undefined) args[name] = value;
  }
  const result = await callRead(backend.client, mapping.tool, args, {
    timeoutMs: backend.settings.timeoutMs,
  });
  return {
    read: { tool: mapping.tool, arguments: args, digest: fingerprint(result) },
    shown: keptResult(result, backend.settings.resultLimit),
  };
}

/**
 * §5.1: at COMMIT, reads the precondition again; a different answer means the state the proposal
 * was made against has changed, so the COMMIT is `conflict` and nothing is sent.
 */
export async function holdPrecondition(
  read: PreconditionRead,
  capability: string,
  backend: Backend,
): Promise<void> {
  const now = await callRead(backend.client, read.tool, read.arguments, {
    timeoutMs: backend.settings.timeoutMs,
  });
  if (fingerprint(now) !== read.digest) {
    throw new ParleyError(
      'conflict',
      `what ${read.tool} reads has changed since this proposal was made, so the call was not sent; re-run the INTENT to see it as it is now`,
      { fix: [{ say: `INTENT ${capability} again with the same params` }] },
    );
  }
}

function fingerprint(result: CallToolResult): string {
  return digestOf({
    isError: result.isError === true,
    content: (result.content ?? []) as unknown as JsonValue,
    structuredContent: (result.structuredContent ?? null) as JsonValue,
  });
}
