import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parsePyJson } from '../py-json/parse.js';
import { getOwn, isPyObject, type PyObject, unhashable } from '../py-json/value.js';
import { optionPayloadText } from '../signing/payloads.js';
import { hashOption } from '../signing/session-options.js';
import { HashedOption } from './hashed-option.js';
import { type Ask, KnownOptions } from './known-options.js';
import { wireText } from './wire.js';

/** What a full read of the body gives, as the server read every body before. */
function fullRead(text: string): { option: PyObject; nonce: string | null } | 'bad_session' | null {
  let request: unknown;
  try {
    request = parsePyJson(text);
  } catch {
    return null;
  }
  if (!isPyObject(request)) return null;
  const option = getOwn(request, 'option');
  if (!isPyObject(option) || unhashable(option) !== null) return null;
  const nonce = getOwn(request, 'session');
  if (nonce !== undefined && nonce !== null && typeof nonce !== 'string') return 'bad_session';
  return { option, nonce: nonce ?? null };
}

/** An ask with a plain option, for comparing with `fullRead`. */
function plain(ask: Ask | 'bad_session' | null) {
  if (ask === null || ask === 'bad_session') return ask;
  const option = ask.option instanceof HashedOption ? ask.option.option : ask.option;
  return { option, nonce: ask.nonce };
}

/** Reads each body twice with one reader, so the second read can come from what it remembers. */
function expectSameAsFullRead(bodies: readonly string[]): void {
  const known = new KnownOptions();
  for (const round of [1, 2]) {
    for (const body of bodies) {
      const ask = known.read(body);
      expect(plain(ask), `${body} (read ${round})`).toEqual(fullRead(body));
      if (ask !== null && ask !== 'bad_session' && ask.option instanceof HashedOption) {
        expect(ask.option.hash).toBe(hashOption(ask.option.option));
        expect(ask.option.text).toBe(optionPayloadText(ask.option.option));
      }
    }
  }
}

const OPTION = { day: 'tue', hour: 14, score: 0.5 };

describe('KnownOptions: /consider bodies, an option asked about before read once', () => {
  it('remembers an option by its text as received, across nonces, with its hash', () => {
    const known = new KnownOptions();
    const first = known.read(wireText({ option: OPTION, session: 'n1' }));
    const again = known.read(wireText({ option: OPTION, session: 'n2' }));
    expect(first).toMatchObject({ nonce: 'n1' });
    expect(again).toMatchObject({ nonce: 'n2' });
    const hashed = (again as Ask).option;
    expect(hashed).toBeInstanceOf(HashedOption);
    expect(hashed).toBe((first as Ask).option);
    expect((hashed as HashedOption).hash).toBe(hashOption(OPTION));
    expect(Object.isFrozen((hashed as HashedOption).option)).toBe(true);
    // One byte more or less is another option, read in full.
    const other = known.read(wireText({ option: { ...OPTION, hour: 15 }, session: 'n2' }));
    expect((other as Ask).option).not.toBe(hashed);
    expect((other as HashedOption & Ask).option).toMatchObject({ option: { hour: 15 } });
  });

  it('reads every body as a full read does, remembered or not', () => {
    const x = wireText(OPTION);
    expectSameAsFullRead([
      `{"option": ${x}, "session": "n"}`,
      `{"option": ${x}, "session": ""}`,
      `{"option": ${x}, "session": "}`,
      `{"option": ${x}, "session": "a\\"b"}`,
      `{"option": ${x}, "session": "a\\u0041"}`,
      `{"option": ${x}, "session": null}`,
      `{"option": ${x}, "session": 5}`,
      `{"option": ${x}}`,
      `{"option": ${x}, "session": "n"} `,
      `{"option":${x}, "session": "n"}`,
      `{"option": {"a": 1}, "option": ${x}, "session": "n"}`,
      `{"option": ${x}, "session": "m", "session": "n"}`,
      `{"option": ${x}, "session": 5, "session": "n"}`,
      `{"option": {"k": ", \\"session\\": \\""}, "session": "n"}`,
      `{"option": {"k": "}, \\"session\\": \\"x"}, "session": "n"}`,
      `{"option": [1], "session": "n"}`,
      `{"option": {"a": 1.0, "b": 1e400}, "session": "n"}`,
      `{"option": {"a": 1.0, "b": 10000000000000000000001}, "session": "n"}`,
      `{"option": {"__proto__": {"x": 1}}, "session": "n"}`,
      `{"option": {"a": "\\ud800"}, "session": "n"}`,
      `{"option": {"a": 1}, "session": "n"`,
      `{"option": , "session": "n"}`,
    ]);
  });

  it('holds for any option and nonce, and any body that splices their texts', () => {
    const json = fc.jsonValue({ maxDepth: 3 });
    const nonce = fc.oneof(fc.string(), fc.constantFrom('', 'n', '"', '\\', '", "session": "'));
    const piece = fc.oneof(
      json.map((v) => JSON.stringify(v)),
      fc.constantFrom(', "session": "', '"}', '{"option": ', '", "option": ', ' ', '"', ','),
    );
    fc.assert(
      fc.property(
        fc.array(fc.tuple(json, nonce), { maxLength: 6 }),
        fc.array(fc.array(piece, { maxLength: 5 }), { maxLength: 6 }),
        (asks, spliced) => {
          const bodies = asks.map(([option, n]) =>
            wireText({ option: option as never, session: n }),
          );
          const texts = asks.map(([option]) => JSON.stringify(option));
          for (const pieces of spliced) {
            const x = texts[pieces.length % Math.max(1, texts.length)] ?? '{}';
            bodies.push(`{"option": ${x}${pieces.join('')}`);
            bodies.push(`{"option": ${pieces.join('')}, "session": "n"}`);
          }
          expectSameAsFullRead(bodies);
        },
      ),
    );
  });
});
