import type { Elicitor, ElicitRequest } from '@parley/consensus';
import { ModelError } from './model-error.js';
import { draftInReply, type ReplyShape } from './reply-shapes.js';
import { readByRules } from './rule-reader.js';

/** A reply as a provider documents it: its API shape and its body (text or parsed JSON). */
export interface ScriptedReply {
  readonly shape: ReplyShape;
  readonly body: string | object;
}

/** What the scripted elicitor says it is. */
export const SCRIPTED_LABEL = 'the scripted elicitor (fixed rules, no model)';

/**
 * An elicitor that needs no network. Given replies (fixtures in a provider's documented shape,
 * or replies recorded from a real model), it plays them in order and reads each exactly as a
 * live reply is read; given none, it reads the answers by fixed rules (`readByRules`) and
 * writes what it finds as an OpenAI chat completion, read the same way. For tests and offline
 * demos; what it returns is as untrusted as any model's.
 */
export class ScriptedElicitor implements Elicitor {
  readonly label: string;
  /** Every request it was given, in order. */
  readonly requests: ElicitRequest[] = [];
  readonly #replies: ScriptedReply[] | null;

  constructor(replies?: readonly ScriptedReply[]) {
    this.#replies = replies === undefined ? null : [...replies];
    this.label =
      replies === undefined
        ? SCRIPTED_LABEL
        : `the scripted elicitor (${replies.length} recorded replies)`;
  }

  async elicit(request: ElicitRequest): Promise<unknown> {
    this.requests.push(request);
    if (this.#replies === null) {
      return draftInReply(
        'openai',
        JSON.stringify(chatCompletion(JSON.stringify(readByRules(request)))),
      );
    }
    const next = this.#replies.shift();
    if (next === undefined) throw new ModelError('bad_reply', 'the script has no more replies');
    return draftInReply(
      next.shape,
      typeof next.body === 'string' ? next.body : JSON.stringify(next.body),
    );
  }
}

/** A chat completion as OpenAI documents it, carrying `content`. */
export function chatCompletion(content: string, model = 'scripted'): object {
  return {
    id: 'chatcmpl-scripted',
    object: 'chat.completion',
    created: 0,
    model,
    choices: [
      {
        index: 0,
        message: { role: 'assistant', content, refusal: null },
        logprobs: null,
        finish_reason: 'stop',
      },
    ],
    usage: { prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 },
  };
}

/** A message as Anthropic documents it, calling `tool` with `input`. */
export function anthropicToolMessage(input: unknown, tool: string, model = 'scripted'): object {
  return {
    id: 'msg_scripted',
    type: 'message',
    role: 'assistant',
    model,
    content: [{ type: 'tool_use', id: 'toolu_scripted', name: tool, input }],
    stop_reason: 'tool_use',
    stop_sequence: null,
    usage: { input_tokens: 0, output_tokens: 0 },
  };
}
