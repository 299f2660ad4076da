import type { Elicitor } from '@parley/consensus';
import { AnthropicElicitor } from './anthropic-elicitor.js';
import type { ModelConfig } from './model-config.js';
import { OpenAiElicitor } from './openai-elicitor.js';
import { ScriptedElicitor } from './scripted-elicitor.js';

/** The elicitor for a model config: OpenAI-compatible, Anthropic, or scripted when null. */
export function elicitorFor(config: ModelConfig | null): Elicitor {
  if (config === null) return new ScriptedElicitor();
  return config.provider === 'openai' ? new OpenAiElicitor(config) : new AnthropicElicitor(config);
}
