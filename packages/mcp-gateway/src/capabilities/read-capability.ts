import type { JsonValue } from '@parley/protocol';
import type { AskDefinition } from '@parley/service';
import { keptResult } from '../calls/kept-result.js';
import { callRead } from '../calls/send-once.js';
import { type Backend, checkArguments, toolFailed } from './backend.js';
import type { PreparedTool } from './prepared-tool.js';

/**
 * §4.2: a read-only tool as an ask capability. The arguments are checked against the tool's
 * JSON Schema first; its answer is the result as `keptResult` keeps it, and its progress
 * notifications are EVENTs before it (§2.2).
 */
export function readCapability(prepared: PreparedTool, backend: Backend): AskDefinition {
  const name = prepared.tool.name;
  return {
    summary: prepared.summary,
    params: prepared.params,
    async run(params, ctx): Promise<JsonValue> {
      checkArguments(name, prepared.check, params);
      const result = await callRead(backend.client, name, params, {
        timeoutMs: backend.settings.timeoutMs,
        progress: ctx.progress,
      });
      if (result.isError === true) throw toolFailed(name, result);
      return keptResult(result, backend.settings.resultLimit);
    },
  };
}
