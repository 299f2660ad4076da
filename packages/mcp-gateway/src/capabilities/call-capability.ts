import { type JsonObject, ParleyError } from '@parley/protocol';
import type { IntentDefinition, ProposalDraft } from '@parley/service';
import { keptResult } from '../calls/kept-result.js';
import { sendOnce } from '../calls/send-once.js';
import { riskOf } from '../tools/risk-table.js';
import { type Backend, checkArguments, toolFailed } from './backend.js';
import { callEffect } from './call-effect.js';
import { holdPrecondition, type PreconditionRead, readPrecondition } from './precondition.js';
import type { PreparedTool } from './prepared-tool.js';
import { revertCall } from './undo-plan.js';

/** What a proposal of a call keeps for its COMMIT (and UNDO): never shown, never hashed. */
export type CallAction = {
  tool: string;
  /** Exactly the arguments shown in the proposal's effect. */
  arguments: JsonObject;
  /** The fingerprint of the tool definition the proposal was made from. */
  definition: string;
  precondition: PreconditionRead | null;
};

/**
 * §4.3, §4.4: a tool that is not read-only as an intent capability. Its one proposal's effect is
 * the exact call (`tools/call TOOL` and the arguments' stable JSON), with the risk from the
 * annotations or the configuration, a cost only where configured, and an undo window only where
 * an inverse tool is configured (else `undo: never`, and the summary says it cannot be undone).
 * COMMIT sends that call and nothing else, once, after checking that the tool's definition and
 * the precondition read (if configured) are what the proposal was made against.
 */
export function callCapability(
  prepared: PreparedTool,
  capability: string,
  backend: Backend,
): IntentDefinition {
  const { tool, settings } = prepared;
  const risk = settings.risk ?? riskOf(tool.annotations);
  const undo = settings.undo;
  const definition: IntentDefinition = {
    summary: prepared.summary,
    params: prepared.params,
    risk,
    // The risk is the server's own guess: only a call configured or annotated low risk and
    // undoable may skip the preview, whatever the grant allows (§4.3.1).
    autoCommitMaxRisk: 'low',
    async plan(params) {
      checkArguments(tool.name, prepared.check, params);
      const draft: ProposalDraft = {
        summary: `Call ${tool.name}${undo === undefined ? '; it cannot be undone' : ''}`,
        effects: [callEffect(settings.effect ?? 'other', tool.name, params)],
        cost: settings.cost ?? null,
        risk,
        undoWindow: undo?.window ?? null,
        action: null,
      };
      let precondition: PreconditionRead | null = null;
      if (settings.precondition !== undefined) {
        const read = await readPrecondition(settings.precondition, params, backend);
        precondition = read.read;
        draft.data = { [`now (${read.read.tool})`]: read.shown };
      }
      const action: CallAction = {
        tool: tool.name,
        arguments: params,
        definition: prepared.digest,
        precondition,
      };
      draft.action = action;
      return [draft];
    },
    async apply(stored, ctx) {
      const action = stored as CallAction;
      const entry = await backend.catalog.entry(action.tool);
      if (entry?.digest !== action.definition) {
        throw new ParleyError(
          'conflict',
          `the server's tool ${action.tool} has ${entry === undefined ? 'gone' : 'changed'} since this proposal was made, so it was not called; re-run the INTENT`,
        );
      }
      if (action.precondition !== null) {
        await holdPrecondition(action.precondition, capability, backend);
      }
      const result = await sendOnce(backend.client, action.tool, action.arguments, {
        timeoutMs: backend.settings.timeoutMs,
        progress: ctx.progress,
      });
      if (result.isError === true) throw toolFailed(action.tool, result);
      return keptResult(result, backend.settings.resultLimit);
    },
  };
  if (undo !== undefined) {
    definition.revert = (stored, ctx) =>
      revertCall(undo, stored as CallAction, ctx.receipt, backend);
  }
  return definition;
}
