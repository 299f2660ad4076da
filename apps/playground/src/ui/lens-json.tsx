import type { Reply } from '@parley/protocol';
import { useMemo, useRef } from 'preact/hooks';
import { estimateTokens, replyTexts, useO200k } from '../protocol/token-counts.js';
import { useScrollable } from './scrollable.js';

function Pane(props: { title: string; hint: string; text: string; kind: 'lens' | 'json' }) {
  const o200k = useO200k(props.text);
  const est = estimateTokens(props.text);
  const text = useRef<HTMLPreElement>(null);
  const scrolls = useScrollable(text, props.text);
  return (
    <div class={`pane pane-${props.kind}`}>
      <header class="pane-head">
        <span class="pane-title" title={props.hint}>
          {props.title}
        </span>
        <span class="counts">
          <span class="count" data-count="o200k" data-value={o200k ?? ''}>
            {o200k === undefined ? '…' : o200k.toLocaleString('en')} <small>o200k tokens</small>
          </span>
          <span class="count count-est" data-count="est" data-value={est}>
            {est.toLocaleString('en')} <small>est. (§8)</small>
          </span>
        </span>
      </header>
      <pre ref={text} class="pane-text" tabIndex={scrolls ? 0 : undefined} data-text={props.kind}>
        {props.text}
      </pre>
    </div>
  );
}

/** A reply as the model could read it: Lens beside the JSON it came as, each with its counts. */
export function LensJson(props: { reply: Reply }) {
  const texts = useMemo(() => replyTexts(props.reply), [props.reply]);
  return (
    <div class="lens-json">
      <Pane title="Lens" hint="§9: the compact text a model reads" text={texts.lens} kind="lens" />
      <Pane
        title="JSON"
        hint="the reply line exactly as it came over the bridge"
        text={texts.json}
        kind="json"
      />
    </div>
  );
}
