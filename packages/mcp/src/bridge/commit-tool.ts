import {
  type CallToolResult,
  CLIENT_CAPABILITIES_META_KEY,
  type ClientCapabilities,
  type ElicitRequestFormParams,
  type InputRequiredResult,
  inputRequired,
  inputResponse,
  type McpServer,
  type RequestStateCodec,
  type ServerContext,
} from '@modelcontextprotocol/server';
import { type ParleyError, renderLens } from '@parley/protocol';
import { textResult, toolError } from '../tool-result.js';
import type { ConsentRequest } from './consent-inbox.js';
import { renderConsentView } from './consent-view.js';
import type { CommitArguments, ParleyBridge } from './parley-bridge.js';
import { errorBody, parleyErrorResult } from './reply-text.js';
import type { ShownProposal } from './shown-proposals.js';

/** The key of the approval question in an MRTR round. */
const APPROVAL_KEY = 'parley_consent';

/**
 * What an approval round asked the person about; integrity-protected by the bridge's
 * request-state codec, so an answer only ever applies to the consent it was given for.
 */
export interface ApprovalState {
  service: string;
  proposal: string;
  hash: string;
  expires: number;
}

/** The form the person answers: one explicit yes/no. */
const APPROVAL_FORM: ElicitRequestFormParams['requestedSchema'] = {
  type: 'object',
  properties: {
    approve: {
      type: 'boolean',
      title: 'Approve this commit',
      description: 'Yes signs a one-shot consent for exactly the proposal shown above.',
    },
  },
  required: ['approve'],
};

/** Whether the host said it can show a form to the person (MCP elicitation, form mode). */
export function hostElicitsForms(ctx: ServerContext, server: McpServer): boolean {
  // 2026-07-28: the capabilities of this very request; 2025 era: those declared at initialize.
  const envelope = ctx.mcpReq.envelope as Record<string, unknown> | undefined;
  const declared = envelope?.[CLIENT_CAPABILITIES_META_KEY] as ClientCapabilities | undefined;
  const capabilities = declared ?? server.server.getClientCapabilities();
  const elicitation = capabilities?.elicitation;
  if (typeof elicitation !== 'object' || elicitation === null) return false;
  // An empty elicitation capability means form mode (the MCP spec's compatibility rule).
  return elicitation.form !== undefined || elicitation.url === undefined;
}

/**
 * `parley_commit`: §4.4 COMMIT of a proposal this bridge showed, by the hash it holds. When the
 * service asks for consent (§6.6) the request is checked against that proposal first and a
 * mismatch is refused. Then, if the bridge holds the principal key and the host can elicit, the
 * person is shown the proposal and asked; only an explicit yes signs a consent grant. Otherwise
 * the consent request goes to the inbox and the model is told how its user approves.
 */
export async function commitTool(
  bridge: ParleyBridge,
  server: McpServer,
  codec: RequestStateCodec<ApprovalState>,
  args: CommitArguments,
  ctx: ServerContext,
): Promise<CallToolResult | InputRequiredResult> {
  const found = bridge.shownProposal(args.proposal);
  if ('error' in found) return found.error;
  const { shown } = found;
  const step = await bridge.commitStep(shown);
  if (step.kind === 'result') return step.result;
  const checked = await bridge.checkConsent(shown, step.consent);
  if (typeof checked === 'string') return toolError(checked);
  const request: ConsentRequest = {
    url: shown.link.url,
    service: shown.link.id ?? step.consent.service,
    consent: step.consent,
    proposal: checked,
    agent: bridge.wallet.publicKey,
    message: step.error.message,
  };
  if (bridge.canSign(step.consent) && hostElicitsForms(ctx, server)) {
    // §E4: the person at the host already approved; only the others listed can add to it.
    if (bridge.hasApproved(step.consent)) return waitForOthers(bridge, request, step.error);
    // §E4: the other people listed can approve at their terminals meanwhile.
    if (step.consent.approvals !== undefined) await bridge.approvals.record(request);
    return askThePerson(bridge, codec, request, shown, ctx);
  }
  return waitForOthers(bridge, request, step.error);
}

/** The consent request goes to the inbox; the model is told the service's words and who acts. */
async function waitForOthers(
  bridge: ParleyBridge,
  request: ConsentRequest,
  error: ParleyError,
): Promise<CallToolResult> {
  const instructions = await bridge.approvals.record(request);
  const counted = bridge.hasApproved(request.consent) ? 'Your user’s approval is counted. ' : '';
  const body = errorBody(error);
  return toolError(`${renderLens(body)}\n${counted}${instructions}`, body);
}

async function askThePerson(
  bridge: ParleyBridge,
  codec: RequestStateCodec<ApprovalState>,
  request: ConsentRequest,
  shown: ShownProposal,
  ctx: ServerContext,
): Promise<CallToolResult | InputRequiredResult> {
  const about: ApprovalState = {
    service: request.service,
    proposal: request.proposal.id,
    hash: request.proposal.hash,
    expires: request.consent.expires,
  };
  const answer = inputResponse(ctx.mcpReq.inputResponses, APPROVAL_KEY);
  const state = ctx.mcpReq.requestState<ApprovalState>();
  const forThis =
    state !== undefined &&
    state.service === about.service &&
    state.proposal === about.proposal &&
    state.hash === about.hash &&
    state.expires === about.expires;
  if (answer.kind !== 'elicit' || !forThis) {
    return inputRequired({
      inputRequests: {
        [APPROVAL_KEY]: inputRequired.elicit({
          message: renderConsentView(request, Math.floor(bridge.now() / 1000)),
          requestedSchema: APPROVAL_FORM,
        }),
      },
      requestState: await codec.mint(about),
    });
  }
  if (answer.action !== 'accept' || answer.content?.approve !== true) {
    return textResult(
      `Your user did not approve proposal ${about.proposal}; nothing was committed or signed.`,
      { kind: 'DECLINED', proposal: about.proposal },
    );
  }
  const token = await bridge.signConsent(request.consent);
  let kept = false;
  try {
    const step = await bridge.commitStep(shown);
    if (step.kind === 'result') return step.result;
    const more = step.consent.approvals;
    if (more === undefined || more.have >= more.need) return parleyErrorResult(step.error);
    // §E4: counted, and other people must still approve: kept for the next COMMIT.
    const checked = await bridge.checkConsent(shown, step.consent);
    if (typeof checked === 'string') return toolError(checked);
    kept = true;
    bridge.keepApproval(step.consent, token);
    const next = { ...request, consent: step.consent, message: step.error.message };
    return waitForOthers(bridge, next, step.error);
  } finally {
    if (!kept) bridge.wallet.remove(token);
  }
}
