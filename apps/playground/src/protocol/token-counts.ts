import { estimateTokens, type Reply, renderLens } from '@parley/protocol';
import { useEffect, useState } from 'preact/hooks';

/** A reply as the model could read it: its Lens (§9) or its JSON line as it came over the wire. */
export type ReplyTexts = { lens: string; json: string };

export function replyTexts(reply: Reply): ReplyTexts {
  return { lens: renderLens(reply), json: JSON.stringify(reply) };
}

type Counter = (text: string) => number;
let loading: Promise<Counter> | undefined;

/**
 * o200k (GPT-4o's tokenizer, gpt-tokenizer in the page): its 2 MB of ranks are loaded on first
 * use, in their own chunk, so the page itself stays small.
 */
export function loadO200k(): Promise<Counter> {
  loading ??= import('gpt-tokenizer/encoding/o200k_base').then((m) => m.countTokens);
  return loading;
}

/** The o200k count of `text`, once the tokenizer has loaded (undefined until then). */
export function useO200k(text: string): number | undefined {
  const [count, setCount] = useState<{ text: string; n: number } | undefined>(undefined);
  useEffect(() => {
    let live = true;
    loadO200k().then((countTokens) => {
      if (live) setCount({ text, n: countTokens(text) });
    });
    return () => {
      live = false;
    };
  }, [text]);
  return count?.text === text ? count.n : undefined;
}

/** §8: the spec's estimate, the same number on both sides. */
export { estimateTokens };
