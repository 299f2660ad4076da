import type { Effect, EffectOp, JsonObject } from '@parley/protocol';
import { stableJson } from '../calls/stable-json.js';

/** §5.1: the exact call as an effect: target `tools/call TOOL`, its arguments' stable JSON. */
export function callEffect(op: EffectOp, tool: string, args: JsonObject): Effect {
  return { op, target: `tools/call ${tool}`, detail: stableJson(args) };
}
