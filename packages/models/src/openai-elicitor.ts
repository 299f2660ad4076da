import {
  DRAFT_REPLY_SCHEMA,
  ELICIT_INSTRUCTIONS,
  type Elicitor,
  type ElicitRequest,
  elicitUserMessage,
} from '@parley/consensus';
import OpenAI from 'openai';
import { boundedFetch } from './bounded-fetch.js';
import { describeModel, type ModelConfig } from './model-config.js';
import { draftInReply } from './reply-shapes.js';
import { modelErrorOf } from './sdk-error.js';

/**
 * An elicitor over OpenAI-compatible chat completions (OpenAI, OpenRouter, Ollama, llama.cpp's
 * server, vLLM, LM Studio: by base URL), through the official `openai` SDK. Structured output
 * with a JSON Schema `response_format`; a server that refuses that parameter (400) is asked
 * once more without it. Every call is a fresh conversation of two messages: no history, so
 * one participant's answers never reach another's drafting.
 */
export class OpenAiElicitor implements Elicitor {
  readonly label: string;
  readonly #config: ModelConfig;

  constructor(config: ModelConfig) {
    this.#config = config;
    this.label = describeModel(config);
  }

  async elicit(request: ElicitRequest, options: { signal?: AbortSignal } = {}): Promise<unknown> {
    const config = this.#config;
    const bounded = boundedFetch({ maxBytes: config.maxReplyBytes, timeoutMs: config.timeoutMs });
    const client = new OpenAI({
      apiKey: config.apiKey,
      baseURL: config.baseUrl,
      organization: null,
      project: null,
      timeout: config.timeoutMs,
      maxRetries: config.maxRetries,
      fetch: bounded.fetch,
      logLevel: 'off',
    });
    const messages = [
      { role: 'system' as const, content: ELICIT_INSTRUCTIONS },
      { role: 'user' as const, content: elicitUserMessage(request) },
    ];
    // OpenAI's own API wants max_completion_tokens (its reasoning models refuse max_tokens);
    // the compatible servers read max_tokens.
    const limit =
      config.baseUrl === null
        ? { max_completion_tokens: config.maxOutputTokens }
        : { max_tokens: config.maxOutputTokens };
    const ask = (structured: boolean) =>
      client.chat.completions
        .create(
          {
            model: config.model,
            messages,
            ...limit,
            ...(structured
              ? {
                  response_format: {
                    type: 'json_schema' as const,
                    json_schema: { name: 'sheet_draft', schema: DRAFT_REPLY_SCHEMA, strict: false },
                  },
                }
              : {}),
          },
          options.signal === undefined ? {} : { signal: options.signal },
        )
        .asResponse();
    let response: Response;
    try {
      try {
        response = await ask(true);
      } catch (error) {
        if ((error as { status?: unknown }).status !== 400 || bounded.problem() !== null)
          throw error;
        response = await ask(false);
      }
    } catch (error) {
      throw modelErrorOf(error, config, bounded.problem());
    }
    return draftInReply('openai', await response.text());
  }
}
