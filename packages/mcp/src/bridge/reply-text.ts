import type { CallToolResult } from '@modelcontextprotocol/server';
import { ClientError } from '@parley/client';
import {
  type ClarifyReply,
  type ErrorReplyBody,
  type FinalReply,
  type FinalReplyBody,
  ParleyError,
  renderLens,
} from '@parley/protocol';
import { TransportError } from '@parley/transport';
import { sentence, textResult, toolError } from '../tool-result.js';
import type { ServiceLink } from './service-link.js';

/** A reply without its envelope (`parley`, `id`, `re`, `lens`): what structured content carries. */
function bodyOf(reply: FinalReply): FinalReplyBody {
  const { parley: _v, id: _id, re: _re, lens: _lens, ...body } = reply;
  return body as FinalReplyBody;
}

/** §4.3: CLARIFY's Lens lists labels only; the model also needs each option's params patch. */
function clarifyPicks(reply: ClarifyReply): string {
  const lines = reply.options.map((o, i) => `  ${i + 1}. ${JSON.stringify(o.params)}`);
  return `\nTo pick one, call parley_intent again with its params merged into yours:\n${lines.join('\n')}`;
}

/** §9: a final reply as a tool result: its Lens, and the reply body as structured content. */
export function replyResult(reply: FinalReply): CallToolResult {
  const body = bodyOf(reply);
  const lens = renderLens(body);
  if (body.kind === 'ERROR') return toolError(lens, body);
  const text = body.kind === 'CLARIFY' ? lens + clarifyPicks(reply as ClarifyReply) : lens;
  return textResult(text, body);
}

/** §7: the ERROR reply body a ParleyError came from. */
export function errorBody(error: ParleyError): ErrorReplyBody {
  return { kind: 'ERROR', ...error.toBody() };
}

/** §7: a ParleyError as the ERROR Lens the service sent. */
export function parleyErrorResult(error: ParleyError): CallToolResult {
  const body = errorBody(error);
  return toolError(renderLens(body), body);
}

/**
 * The tool result for a failed call to `link`: the service's ERROR as Lens, or one sentence for a
 * local failure (unreachable, closed, timeout, a service that is not the one it was). Anything
 * else is not handled here (undefined).
 */
export function failureResult(error: unknown, link: ServiceLink): CallToolResult | undefined {
  if (error instanceof ParleyError) return parleyErrorResult(error);
  const name = link.id === undefined ? link.url : `${link.id} (${link.url})`;
  if (error instanceof TransportError) {
    link.reset();
    if (error.reason === 'timeout') {
      return toolError(
        `${name} did not answer in time; it may still act on the request, so check before retrying.`,
      );
    }
    return toolError(
      `Cannot reach ${name} (${error.reason}): ${sentence(error.message)} Check that the service is running, then retry.`,
    );
  }
  if (error instanceof ClientError) {
    link.reset();
    return toolError(
      `${name} answered unexpectedly (${error.reason}): ${sentence(error.message)} Tell your user; retrying will not help.`,
    );
  }
  return undefined;
}
