import { describe, expect, it } from 'vitest';
import { describeModel, modelConfigFrom } from './model-config.js';

const KEY = 'sk-test-abcdefghijklmnop';

describe('picking a model from flags and the SDKs’ environment variables', () => {
  it('no provider, key or base URL: the scripted elicitor (null)', () => {
    expect(modelConfigFrom({}, {})).toBeNull();
    expect(modelConfigFrom({ provider: 'scripted' }, { OPENAI_API_KEY: KEY })).toBeNull();
  });

  it('an OpenAI key picks OpenAI with its default model; an Anthropic key picks Anthropic', () => {
    const openai = modelConfigFrom({}, { OPENAI_API_KEY: KEY });
    expect(openai).toMatchObject({
      provider: 'openai',
      model: 'gpt-4.1-mini',
      baseUrl: null,
      keySource: 'OPENAI_API_KEY',
    });
    expect(describeModel(openai as never)).toBe('openai model gpt-4.1-mini at api.openai.com');
    const anthropic = modelConfigFrom({}, { ANTHROPIC_API_KEY: KEY });
    expect(anthropic).toMatchObject({ provider: 'anthropic', model: 'claude-sonnet-4-5' });
  });

  it('a local server by base URL needs no key but names its model', () => {
    const local = modelConfigFrom(
      { model: 'llama3.2' },
      { OPENAI_BASE_URL: 'http://127.0.0.1:11434/v1/' },
    );
    expect(local).toMatchObject({
      provider: 'openai',
      baseUrl: 'http://127.0.0.1:11434/v1',
      keySource: 'none (a local server)',
    });
    expect(describeModel(local as never)).toBe(
      'openai-compatible model llama3.2 at http://127.0.0.1:11434/v1',
    );
    expect(() => modelConfigFrom({ baseUrl: 'http://127.0.0.1:8080/v1' }, {})).toThrow(/--model/);
    expect(modelConfigFrom({ baseUrl: 'http://127.0.0.1:8080/v1', model: 'q' }, {})?.baseUrl).toBe(
      'http://127.0.0.1:8080/v1',
    );
  });

  it('refuses what it cannot use, in one sentence, never echoing a key', () => {
    expect(() => modelConfigFrom({ provider: 'openai' }, {})).toThrow(/set OPENAI_API_KEY/);
    expect(() =>
      modelConfigFrom({ provider: 'anthropic', baseUrl: 'http://127.0.0.1:1' }, {}),
    ).toThrow(/set ANTHROPIC_API_KEY/);
    expect(() => modelConfigFrom({}, { OPENAI_API_KEY: KEY, ANTHROPIC_API_KEY: KEY })).toThrow(
      /--provider/,
    );
    expect(() => modelConfigFrom({ provider: 'mistral' }, {})).toThrow(
      /unknown provider "mistral"/,
    );
    expect(() => modelConfigFrom({ baseUrl: 'ftp://x', model: 'm' }, {})).toThrow(/http/);
    const withKey = `http://user:${KEY}@127.0.0.1:1/v1`;
    let message = '';
    try {
      modelConfigFrom({ baseUrl: withKey, model: 'm' }, {});
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toMatch(/must not carry credentials/);
    expect(message).not.toContain(KEY);
  });
});
