import type { Elicitor } from '@parley/consensus';
import { elicitorFor, ModelError, type ModelFlags, modelConfigFrom } from '@parley/models';
import type { CliContext } from '../cli-context.js';
import { CliError } from '../cli-error.js';

/**
 * The elicitor the flags and the SDKs' environment variables name, said on stderr (which
 * model, where, the key's variable, never the key); the scripted elicitor when none is set.
 */
export function chooseElicitor(
  ctx: CliContext,
  flags: ModelFlags,
  env: NodeJS.ProcessEnv,
): Elicitor {
  let config: ReturnType<typeof modelConfigFrom>;
  try {
    config = modelConfigFrom(flags, env);
  } catch (error) {
    if (error instanceof ModelError) throw new CliError(error.message);
    throw error;
  }
  const elicitor = elicitorFor(config);
  ctx.err(
    config === null
      ? `drafting with ${elicitor.label}: no model is configured (set OPENAI_API_KEY, ANTHROPIC_API_KEY or OPENAI_BASE_URL, or pass --provider)\n`
      : `drafting with the ${elicitor.label} (key: ${config.keySource})\n`,
  );
  return elicitor;
}
