import Anthropic from '@anthropic-ai/sdk';
import {
  DRAFT_REPLY_SCHEMA,
  ELICIT_INSTRUCTIONS,
  type Elicitor,
  type ElicitRequest,
  elicitUserMessage,
} from '@parley/consensus';
import { boundedFetch } from './bounded-fetch.js';
import { describeModel, type ModelConfig } from './model-config.js';
import { DRAFT_TOOL, draftInReply } from './reply-shapes.js';
import { modelErrorOf } from './sdk-error.js';

/**
 * An elicitor over Anthropic Messages through the official `@anthropic-ai/sdk`. Structured
 * output is a tool the model must call (`tool_choice`), whose `input_schema` is the draft's
 * schema. One fresh conversation per call: no history crosses participants.
 */
export class AnthropicElicitor implements Elicitor {
  readonly label: string;
  readonly #config: ModelConfig;

  constructor(config: ModelConfig) {
    this.#config = config;
    this.label = describeModel(config);
  }

  async elicit(request: ElicitRequest, options: { signal?: AbortSignal } = {}): Promise<unknown> {
    const config = this.#config;
    const bounded = boundedFetch({ maxBytes: config.maxReplyBytes, timeoutMs: config.timeoutMs });
    const client = new Anthropic({
      apiKey: config.apiKey,
      authToken: null,
      baseURL: config.baseUrl,
      timeout: config.timeoutMs,
      maxRetries: config.maxRetries,
      fetch: bounded.fetch,
      logLevel: 'off',
    });
    let response: Response;
    try {
      response = await client.messages
        .create(
          {
            model: config.model,
            max_tokens: config.maxOutputTokens,
            system: ELICIT_INSTRUCTIONS,
            messages: [{ role: 'user', content: elicitUserMessage(request) }],
            tools: [
              {
                name: DRAFT_TOOL,
                description: "Record the draft of the person's position for them to review.",
                input_schema: DRAFT_REPLY_SCHEMA as unknown as Anthropic.Tool.InputSchema,
              },
            ],
            tool_choice: { type: 'tool', name: DRAFT_TOOL },
          },
          options.signal === undefined ? {} : { signal: options.signal },
        )
        .asResponse();
    } catch (error) {
      throw modelErrorOf(error, config, bounded.problem());
    }
    return draftInReply('anthropic', await response.text());
  }
}
