/**
 * §2.1: a reply's compact JSON made once. A service that serialized a reply body (to bound its
 * Lens, answer-bound.ts) keeps that text on the body and on the frame made around it, and the
 * transport writes it instead of serializing the frame again. The text is a non-enumerable
 * property: JSON, Object.keys and copies (`{ ...frame }`) leave it out, so a copy that changes
 * anything is serialized afresh. Only for objects nobody changes afterwards, as replies are.
 */
const WIRE_TEXT: unique symbol = Symbol('parley.wireText');

type Carrier = { [WIRE_TEXT]?: string };

/** Keeps `json`, which must be JSON.stringify(value), on `value` (when it can take it). */
export function keepJson(value: object, json: string): void {
  if (Object.isExtensible(value)) Object.defineProperty(value, WIRE_TEXT, { value: json });
}

/** JSON.stringify(frame), or the text kept on it. */
export function stringifyFrame(frame: object): string {
  return (frame as Carrier)[WIRE_TEXT] ?? JSON.stringify(frame);
}

/**
 * Keeps the JSON of `frame`, made as `{ parley, id, re, ...body }`, built from the text kept on
 * `body`: the envelope's members, then the body's. Nothing is kept unless the body's JSON starts
 * with `kind` (an object with an array-index key writes that key first, before the envelope's
 * too) and the body holds no member of the envelope (the spread would overwrite it in place).
 */
export function keepEnvelopeJson(
  frame: { parley: number; id: string; re: string },
  body: object,
): void {
  const json = (body as Carrier)[WIRE_TEXT];
  if (json === undefined || !json.startsWith('{"kind":')) return;
  if (Object.hasOwn(body, 'parley') || Object.hasOwn(body, 'id') || Object.hasOwn(body, 're')) {
    return;
  }
  keepJson(
    frame,
    `{"parley":${frame.parley},"id":${JSON.stringify(frame.id)},"re":${JSON.stringify(frame.re)},${json.slice(1)}`,
  );
}
