import { type JsonObject, type JsonValue, ParleyError, type Receipt } from '@parley/protocol';
import type { RevertOutcome } from '@parley/service';
import { keptResult } from '../calls/kept-result.js';
import { sendOnce } from '../calls/send-once.js';
import { stableJson } from '../calls/stable-json.js';
import { evaluateExpression, expressionText } from '../config/argument-expression.js';
import type { UndoMapping } from '../config/gateway-config.js';
import { compileSchema } from '../schema/argument-validator.js';
import { type Backend, toolFailed } from './backend.js';
import { callEffect } from './call-effect.js';

/** What a committed call keeps for its UNDO: its tool and the arguments it was sent with. */
export type CommittedCall = { tool: string; arguments: JsonObject };

/**
 * §4.5: reverses a committed call with the configured inverse tool, its arguments taken from the
 * call (`$arguments`) or its result as the receipt keeps it (`$result`, `$text`). The inverse
 * call is checked against the inverse tool's schema as the server lists it now, then sent once:
 * a lost answer leaves the undo in doubt (`parley doubt`), never sent twice.
 */
export async function revertCall(
  mapping: UndoMapping,
  call: CommittedCall,
  receipt: Receipt,
  backend: Backend,
): Promise<RevertOutcome> {
  const entry = await backend.catalog.entry(mapping.tool);
  if (entry === undefined) {
    throw new ParleyError(
      'conflict',
      `cannot undo ${receipt.id}: the server no longer offers ${mapping.tool}, its inverse`,
    );
  }
  const kept = (receipt.result ?? {}) as { text?: string; structured?: JsonValue };
  const context = {
    arguments: call.arguments,
    result: kept.structured,
    text: kept.text ?? (kept.structured === undefined ? undefined : stableJson(kept.structured)),
  };
  const args: JsonObject = {};
  for (const [name, expression] of mapping.arguments) {
    const value = evaluateExpression(expression, context);
    if (value === undefined) {
      throw new ParleyError(
        'conflict',
        `cannot undo ${receipt.id}: ${mapping.tool}'s ${name} comes from ${expressionText(expression)}, which the receipt does not hold`,
      );
    }
    args[name] = value;
  }
  const problem = compileSchema(entry.tool.inputSchema)(args);
  if (problem !== undefined) {
    throw new ParleyError(
      'conflict',
      `cannot undo ${receipt.id}: the arguments for ${mapping.tool} do not match its schema: ${problem}`,
    );
  }
  const result = await sendOnce(backend.client, mapping.tool, args, {
    timeoutMs: backend.settings.timeoutMs,
  });
  if (result.isError === true) throw toolFailed(mapping.tool, result);
  const op = backend.settings.tools.get(mapping.tool)?.effect ?? 'other';
  return {
    effects: [callEffect(op, mapping.tool, args)],
    result: keptResult(result, backend.settings.resultLimit),
  };
}
