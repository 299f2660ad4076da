/**
 * Compact JSON already made for a frame or a reply body, by object, so the text a service
 * measured a reply with (answer-bound.ts) is the text that goes on the wire: each reply is
 * serialized once. Only for objects nobody changes once their JSON is made, as replies are.
 */
const made = new WeakMap<object, string>();

/** Remembers `json` as JSON.stringify(value); `value` must not change afterwards. */
export function rememberJson(value: object, json: string): void {
  made.set(value, json);
}

/** The JSON remembered for `value`, if any. */
export function knownJson(value: object): string | undefined {
  return made.get(value);
}

/** JSON.stringify(frame), or the JSON remembered for it. */
export function stringifyFrame(frame: object): string {
  return made.get(frame) ?? JSON.stringify(frame);
}

/** §2.1: envelope members, written first; a body holding one of them is serialized afresh. */
const ENVELOPE_KEYS = ['parley', 'id', 're'] as const;

/**
 * Remembers the JSON of `frame`, made as `{ parley, id, re, ...body }`, from the JSON
 * remembered for `body`: the envelope's members, then the body's. Nothing is remembered unless
 * the body's JSON starts with `kind` (an object whose keys include an array index writes those
 * first, before the envelope's too) and the body holds no member of the envelope (the spread
 * would overwrite it in place).
 */
export function rememberEnvelopeJson(
  frame: { parley: number; id: string; re: string },
  body: object,
): void {
  const json = made.get(body);
  if (json === undefined || !json.startsWith('{"kind":')) return;
  for (const key of ENVELOPE_KEYS) if (Object.hasOwn(body, key)) return;
  made.set(
    frame,
    `{"parley":${frame.parley},"id":${JSON.stringify(frame.id)},"re":${JSON.stringify(frame.re)},${json.slice(1)}`,
  );
}
