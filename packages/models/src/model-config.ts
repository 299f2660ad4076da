import { ModelError } from './model-error.js';

/** The providers a model can come from; `scripted` needs none. */
export const PROVIDERS = ['openai', 'anthropic', 'scripted'] as const;
export type Provider = (typeof PROVIDERS)[number];

/** The model used when a provider is chosen without `--model` (its own API only). */
export const DEFAULT_MODELS = { openai: 'gpt-4.1-mini', anthropic: 'claude-sonnet-4-5' } as const;
/** Each request's deadline, headers and body together. */
export const DEFAULT_TIMEOUT_MS = 60_000;
/** Retries after a 429, a 5xx, a timeout or a dropped connection (with the SDK's backoff). */
export const DEFAULT_MAX_RETRIES = 2;
/** Bytes of one HTTP reply read before it is refused. */
export const DEFAULT_MAX_REPLY_BYTES = 1_048_576;
/** Tokens the model may write in one reply. */
export const DEFAULT_MAX_OUTPUT_TOKENS = 4_096;
/** The longest wait a provider's Retry-After may ask for before a retry. */
export const MAX_RETRY_WAIT_MS = 30_000;

/** A real model: which provider, which model, where, and the key (kept out of every message). */
export interface ModelConfig {
  readonly provider: Exclude<Provider, 'scripted'>;
  readonly model: string;
  /** The API's base URL; null is the provider's own. */
  readonly baseUrl: string | null;
  readonly apiKey: string;
  /** Where the key came from, to say so: `OPENAI_API_KEY`, or `none (a local server)`. */
  readonly keySource: string;
  readonly timeoutMs: number;
  readonly maxRetries: number;
  readonly maxReplyBytes: number;
  readonly maxOutputTokens: number;
}

/** The flags a command takes to pick a model. */
export interface ModelFlags {
  readonly provider?: string | undefined;
  readonly model?: string | undefined;
  readonly baseUrl?: string | undefined;
}

const ENV = {
  openai: { key: 'OPENAI_API_KEY', baseUrl: 'OPENAI_BASE_URL' },
  anthropic: { key: 'ANTHROPIC_API_KEY', baseUrl: 'ANTHROPIC_BASE_URL' },
} as const;

/**
 * The model `--provider`, `--model` and `--base-url` and the SDKs' own environment variables
 * (`OPENAI_API_KEY`, `OPENAI_BASE_URL`, `ANTHROPIC_API_KEY`, `ANTHROPIC_BASE_URL`) name, or
 * null for the scripted elicitor (no provider named, no key or base URL set). Without
 * `--provider`: a base URL or an OpenAI variable means OpenAI-compatible, an Anthropic key
 * means Anthropic, both is a ModelError asking which.
 */
export function modelConfigFrom(
  flags: ModelFlags,
  env: Readonly<Record<string, string | undefined>>,
): ModelConfig | null {
  const set = (name: string): string | undefined => {
    const value = env[name];
    return value === undefined || value.trim() === '' ? undefined : value.trim();
  };
  const provider = flags.provider ?? inferProvider(flags, set);
  if (provider === 'scripted' || provider === null) {
    if (flags.model !== undefined || flags.baseUrl !== undefined) {
      throw new ModelError(
        'config',
        '--model and --base-url need a provider: --provider openai or anthropic',
      );
    }
    return null;
  }
  if (provider !== 'openai' && provider !== 'anthropic') {
    throw new ModelError(
      'config',
      `unknown provider ${JSON.stringify(provider.slice(0, 40))}; use ${PROVIDERS.join(', ')}`,
    );
  }
  const names = ENV[provider];
  const baseUrl = checkBaseUrl(flags.baseUrl ?? set(names.baseUrl) ?? null);
  const key = set(names.key);
  if (key === undefined && (provider === 'anthropic' || baseUrl === null)) {
    throw new ModelError('config', `set ${names.key} to use ${provider} (or --provider scripted)`);
  }
  if (flags.model === undefined && baseUrl !== null) {
    throw new ModelError(
      'config',
      `name the model the server at ${baseUrlLabel(baseUrl)} runs with --model (for example --model llama3.2)`,
    );
  }
  return {
    provider,
    model: flags.model ?? DEFAULT_MODELS[provider],
    baseUrl,
    // A local OpenAI-compatible server (Ollama, llama.cpp) takes any key; the SDK wants one.
    apiKey: key ?? 'no-key',
    keySource: key === undefined ? 'none (a local server)' : names.key,
    timeoutMs: DEFAULT_TIMEOUT_MS,
    maxRetries: DEFAULT_MAX_RETRIES,
    maxReplyBytes: DEFAULT_MAX_REPLY_BYTES,
    maxOutputTokens: DEFAULT_MAX_OUTPUT_TOKENS,
  };
}

/** `openai model gpt-4.1-mini at api.openai.com`: said to the person; never the key. */
export function describeModel(config: ModelConfig): string {
  const where =
    config.baseUrl === null
      ? config.provider === 'openai'
        ? 'api.openai.com'
        : 'api.anthropic.com'
      : baseUrlLabel(config.baseUrl);
  const kind =
    config.provider === 'openai' && config.baseUrl !== null ? 'openai-compatible' : config.provider;
  return `${kind} model ${config.model} at ${where}`;
}

function inferProvider(
  flags: ModelFlags,
  set: (name: string) => string | undefined,
): string | null {
  const openai =
    flags.baseUrl !== undefined ||
    set('OPENAI_API_KEY') !== undefined ||
    set('OPENAI_BASE_URL') !== undefined;
  const anthropic =
    set('ANTHROPIC_API_KEY') !== undefined || set('ANTHROPIC_BASE_URL') !== undefined;
  if (openai && anthropic && flags.baseUrl === undefined) {
    throw new ModelError(
      'config',
      'both OpenAI and Anthropic variables are set: say which with --provider openai or --provider anthropic',
    );
  }
  if (openai) return 'openai';
  if (anthropic) return 'anthropic';
  return flags.model === undefined ? null : 'openai';
}

/** An http(s) URL without credentials, query or fragment (they would leak into messages). */
function checkBaseUrl(text: string | null): string | null {
  if (text === null) return null;
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new ModelError(
      'config',
      'the base URL is not a URL (for example http://127.0.0.1:11434/v1)',
    );
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new ModelError('config', 'the base URL must be http:// or https://');
  }
  if (url.username !== '' || url.password !== '' || url.search !== '' || url.hash !== '') {
    throw new ModelError(
      'config',
      'the base URL must not carry credentials, a query or a fragment; put the key in the API key variable',
    );
  }
  return url.href.replace(/\/+$/, '');
}

/** A base URL as shown: scheme, host and path. */
export function baseUrlLabel(baseUrl: string): string {
  const url = new URL(baseUrl);
  return `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
}
