import type { AnswerBody, AskRequest } from '@parley/protocol';
import { validateParams } from '../params/validate.js';
import { authorizeRequest, verifyRequestProof } from './authorize.js';
import type { HandleContext, ServiceCore } from './core.js';
import { progressSink } from './execute-commit.js';
import { lookupCapability } from './lookup.js';
import { fitToBudget, ownerOf } from './reply.js';

/** §4.2 ASK → ANSWER. Reads need no grant unless the service or capability requires one. */
export async function ask(
  core: ServiceCore,
  request: AskRequest,
  ctx: HandleContext = {},
): Promise<AnswerBody> {
  const entry = lookupCapability(core, request.capability, 'ask');
  const holder = await verifyRequestProof(core, request);
  let principal: string | null = null;
  if (core.requireGrants.ask || entry.definition.requireGrant === true) {
    principal = await authorizeRequest(core, request, holder, { capability: entry.name });
  }
  const params = request.params ?? {};
  validateParams(entry.fields, params);
  const data = await entry.definition.run(params, {
    holder,
    principal,
    now: core.now(),
    data: core.store.data,
    progress: progressSink(ctx, request.id),
  });
  return fitToBudget(core, request, { kind: 'ANSWER', data }, ownerOf(holder, principal));
}
