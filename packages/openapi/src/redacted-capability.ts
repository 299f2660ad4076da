import { type ErrorBody, type JsonValue, ParleyError } from '@parley/protocol';
import {
  type AskDefinition,
  type IntentDefinition,
  OutcomeUnknownError,
  type PlanResult,
} from '@parley/service';
import type { Redactor } from './credentials.js';

/**
 * The one place text from the upstream leaves the service: an ask's answer, a proposal's
 * summary, effects and data, a receipt's and a reversal's result and effects, every error a
 * capability throws, and every progress event pass through the redactor (the service's log is
 * redacted where it is made, openapi-service.ts). A proposal's action stays as it is: it is
 * never shown, and it is what goes upstream.
 */
export function redactedAsk(definition: AskDefinition, redactor: Redactor): AskDefinition {
  return {
    ...definition,
    run: (params, ctx) =>
      guarded(redactor, async () => redactor.json(await definition.run(params, ctx))),
  };
}

export function redactedIntent(definition: IntentDefinition, redactor: Redactor): IntentDefinition {
  const redacted: IntentDefinition = {
    ...definition,
    plan: (params, ctx) =>
      guarded(redactor, async () => redactedPlan(await definition.plan(params, ctx), redactor)),
    apply: (action, ctx) =>
      guarded(redactor, async () => {
        const progress = (message: string, fraction?: number) =>
          ctx.progress(redactor.text(message), fraction);
        return redactor.json(await definition.apply(action, { ...ctx, progress }));
      }),
  };
  const revert = definition.revert;
  if (revert !== undefined) {
    redacted.revert = (action, ctx) =>
      guarded(redactor, async () => {
        const progress = (message: string, fraction?: number) =>
          ctx.progress(redactor.text(message), fraction);
        const outcome = await revert(action, { ...ctx, progress });
        if (outcome === undefined) return undefined;
        return {
          ...(outcome.effects === undefined ? {} : { effects: redactor.json(outcome.effects) }),
          ...(outcome.result === undefined ? {} : { result: redactor.json(outcome.result) }),
        };
      });
  }
  return redacted;
}

function redactedPlan(result: PlanResult, redactor: Redactor): PlanResult {
  if (!Array.isArray(result)) return redactor.json(result as unknown as JsonValue) as never;
  return result.map((draft) => {
    const { action, data, ...shown } = draft;
    const clean = redactor.json(shown as unknown as JsonValue) as Omit<typeof draft, 'action'>;
    return { ...clean, action, ...(data === undefined ? {} : { data: redactor.json(data) }) };
  });
}

/**
 * Runs `work`; a ParleyError it throws is rethrown, same class and code, with the text redacted.
 */
async function guarded<T>(redactor: Redactor, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (!(error instanceof ParleyError) || !redactor.active) throw error;
    const body = redactor.json(error.toBody() as unknown as JsonValue) as unknown as ErrorBody;
    // OutcomeUnknownError keeps its class: the service leaves the commit or undo in doubt for it.
    if (error instanceof OutcomeUnknownError) {
      throw new OutcomeUnknownError(body.message, { cause: error.cause });
    }
    throw ParleyError.fromBody(body);
  }
}
