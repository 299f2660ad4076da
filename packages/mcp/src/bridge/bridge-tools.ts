import {
  type CallToolResult,
  fromJsonSchema,
  type InputRequiredResult,
  type McpServer,
  type RequestStateCodec,
  type ServerContext,
} from '@modelcontextprotocol/server';
import { unexpectedError } from '../tool-result.js';
import { type ApprovalState, commitTool } from './commit-tool.js';
import type {
  AskArguments,
  CommitArguments,
  ExpandArguments,
  IntentArguments,
  ParleyBridge,
  UndoArguments,
} from './parley-bridge.js';

export const ASK_TOOL = 'parley_ask';
export const INTENT_TOOL = 'parley_intent';
export const COMMIT_TOOL = 'parley_commit';
export const UNDO_TOOL = 'parley_undo';
export const EXPAND_TOOL = 'parley_expand';

const BUDGET = {
  type: 'integer',
  minimum: 1,
  maximum: 100_000,
  description: 'The largest reply you want, in estimated tokens; default 2000.',
} as const;

function serviceProperty(bridge: ParleyBridge): { type: 'string'; description: string } {
  return {
    type: 'string',
    description: `The service: ${bridge.serviceNames().join(', ')}. Optional when only one service fits.`,
  };
}

/** Every service's BRIEF as Lens (§9.2), for the tool descriptions. */
function briefs(bridge: ParleyBridge): string {
  return bridge.links.map((link) => link.briefLens()).join('\n\n');
}

/** A tool handler that turns any unplanned failure into a tool error, never a crash. */
function guarded<A>(
  bridge: ParleyBridge,
  body: (args: A, ctx: ServerContext) => Promise<CallToolResult | InputRequiredResult>,
): (args: A, ctx: ServerContext) => Promise<CallToolResult | InputRequiredResult> {
  return async (args, ctx) => {
    try {
      return await body(args, ctx);
    } catch (error) {
      return unexpectedError(error, bridge.report);
    }
  };
}

/**
 * Registers parley_ask, parley_intent, parley_commit, parley_undo and parley_expand: one shared
 * set for every service, whose descriptions carry each service's BRIEF as Lens.
 */
export function registerBridgeTools(
  server: McpServer,
  bridge: ParleyBridge,
  codec: RequestStateCodec<ApprovalState>,
): void {
  const service = serviceProperty(bridge);
  const lens = briefs(bridge);
  server.registerTool(
    ASK_TOOL,
    {
      title: 'Ask a Parley service',
      description: [
        'Read from a Parley service without changing anything (Parley ASK): name one of its `ask`',
        'capabilities below and pass its params. The answer is Lens text; a line',
        '"… N more at PATH — EXPAND h_…" means part was left out: fetch it with parley_expand.',
        '',
        lens,
      ].join('\n'),
      inputSchema: fromJsonSchema<AskArguments>({
        type: 'object',
        properties: {
          service,
          capability: { type: 'string', minLength: 1, description: 'An `ask` capability.' },
          params: { type: 'object', description: 'Its parameters, as its BRIEF line lists them.' },
          budget: BUDGET,
        },
        required: ['capability'],
        additionalProperties: false,
      }),
      annotations: { readOnlyHint: true, openWorldHint: true },
    },
    guarded(bridge, (args: AskArguments) => bridge.ask(args)),
  );
  server.registerTool(
    INTENT_TOOL,
    {
      title: 'Tell a Parley service what you want',
      description: [
        'Say what you want from a Parley service (Parley INTENT). Nothing changes yet: the service',
        'answers with proposals, each with an id, the effects it would have, its cost, risk and undo',
        'window, or with a question whose options you pick by calling again. Make one happen with',
        'parley_commit and its proposal id. Name one of the `intent` capabilities below.',
        '',
        lens,
      ].join('\n'),
      inputSchema: fromJsonSchema<IntentArguments>({
        type: 'object',
        properties: {
          service,
          capability: { type: 'string', minLength: 1, description: 'An `intent` capability.' },
          params: { type: 'object', description: 'Its parameters, as its BRIEF line lists them.' },
          goal: { type: 'string', description: 'What you want, in words (optional).' },
          budget: BUDGET,
        },
        required: ['capability'],
        additionalProperties: false,
      }),
      annotations: { readOnlyHint: true, openWorldHint: true },
    },
    guarded(bridge, (args: IntentArguments) => bridge.intent(args)),
  );
  server.registerTool(
    COMMIT_TOOL,
    {
      title: 'Make a proposal happen',
      description: [
        'Make a proposal happen (Parley COMMIT). Name the id of a proposal that parley_intent',
        'showed you; exactly that proposal is committed, bound to its hash as it was received (you',
        'cannot pass a hash). If your user must approve it, you are told how (they are asked here,',
        'or you get a command for them to run); after they approve, call parley_commit again.',
        `Services: ${bridge.serviceNames().join(', ')}.`,
      ].join(' '),
      inputSchema: fromJsonSchema<CommitArguments>({
        type: 'object',
        properties: {
          proposal: {
            type: 'string',
            minLength: 1,
            description: 'A proposal id from parley_intent, such as p_7Hc2….',
          },
        },
        required: ['proposal'],
        additionalProperties: false,
      }),
      annotations: { readOnlyHint: false, destructiveHint: true, openWorldHint: true },
    },
    guarded(bridge, (args: CommitArguments, ctx) => commitTool(bridge, server, codec, args, ctx)),
  );
  server.registerTool(
    UNDO_TOOL,
    {
      title: 'Undo a commit',
      description: [
        'Reverse a commit within its undo window (Parley UNDO). Name the receipt id (r_…) that',
        'parley_commit returned.',
      ].join(' '),
      inputSchema: fromJsonSchema<UndoArguments>({
        type: 'object',
        properties: {
          receipt: { type: 'string', minLength: 1, description: 'A receipt id, such as r_91….' },
          service,
        },
        required: ['receipt'],
        additionalProperties: false,
      }),
      annotations: { readOnlyHint: false, destructiveHint: true, openWorldHint: true },
    },
    guarded(bridge, (args: UndoArguments) => bridge.undo(args)),
  );
  server.registerTool(
    EXPAND_TOOL,
    {
      title: 'Get the rest of a reply',
      description: [
        'Fetch what a reply left out (Parley EXPAND): name the handle (h_…) from a',
        '"… N more at PATH — EXPAND h_…" line.',
      ].join(' '),
      inputSchema: fromJsonSchema<ExpandArguments>({
        type: 'object',
        properties: {
          handle: { type: 'string', minLength: 1, description: 'A handle, such as h_3kd….' },
          service,
          budget: BUDGET,
        },
        required: ['handle'],
        additionalProperties: false,
      }),
      annotations: { readOnlyHint: true, openWorldHint: true },
    },
    guarded(bridge, (args: ExpandArguments) => bridge.expand(args)),
  );
}
