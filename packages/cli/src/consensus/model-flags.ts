/** The help of the model options of `consensus interview` and `start` (no SDK is loaded here). */
export const MODEL_FLAG_HELP = {
  provider: 'openai (any OpenAI-compatible server), anthropic, or scripted (no model)',
  model: 'the model name (for a local server, the name it serves: llama3.2, qwen2.5…)',
  baseUrl: 'the API base URL, e.g. http://127.0.0.1:11434/v1 for Ollama (else OPENAI_BASE_URL)',
} as const;
