import {
  ERROR_CODES,
  type ErrorReply,
  publicKeyString,
  REPLY_KINDS,
  requestIdOf,
  VERBS,
} from '@parley/protocol';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MemoryStore } from '../src/index.js';
import { keys, testClock, toyService } from './harness.js';

const { principal } = await keys();

/** Frames near the valid shape, with every field possibly wrong. */
const nearFrame = fc.record(
  {
    parley: fc.oneof(fc.constant(1), fc.anything()),
    id: fc.oneof(fc.string(), fc.anything()),
    verb: fc.oneof(fc.constantFrom(...VERBS), fc.string()),
    capability: fc.oneof(
      fc.constantFrom('acme.echo', 'acme.list', 'acme.buy', 'acme.send'),
      fc.string(),
      fc.anything(),
    ),
    params: fc.oneof(
      fc.dictionary(
        fc.constantFrom('text', 'n', 'amount', 'to', 'mode', 'opts', 'tags', 'count'),
        fc.jsonValue(),
      ),
      fc.jsonValue(),
    ),
    budget: fc.oneof(fc.integer({ min: -5, max: 5000 }), fc.anything()),
    grants: fc.oneof(fc.array(fc.string({ maxLength: 80 })), fc.anything()),
    proof: fc.oneof(
      fc.record({ key: fc.string(), ts: fc.integer(), sig: fc.string() }),
      fc.anything(),
    ),
    proposal: fc.oneof(fc.string(), fc.anything()),
    hash: fc.oneof(fc.string(), fc.anything()),
    receipt: fc.oneof(fc.string(), fc.anything()),
    handle: fc.oneof(fc.string(), fc.anything()),
    auto: fc.oneof(fc.boolean(), fc.anything()),
    goal: fc.oneof(fc.string(), fc.anything()),
  },
  { requiredKeys: [] },
);

const frameText = fc.oneof(
  fc.string(),
  fc.jsonValue().map((v) => JSON.stringify(v)),
  nearFrame.map((f) => JSON.stringify(f) ?? 'null'),
);

describe('§2.2, §7: any frame gets exactly one well-formed final reply and changes nothing', () => {
  it('never an internal error (every bad input is a typed §7 error), never a state change', async () => {
    const store = new MemoryStore();
    const { service } = toyService({
      trust: [publicKeyString(principal)],
      clock: testClock().now,
      store,
    });
    await fc.assert(
      fc.asyncProperty(frameText, async (text) => {
        const reply = await service.handleText(text);
        expect(reply.parley).toBe(1);
        expect(typeof reply.id).toBe('string');
        let parsed: unknown;
        try {
          parsed = JSON.parse(text);
        } catch {
          parsed = undefined;
        }
        expect(reply.re).toBe(requestIdOf(parsed));
        expect(REPLY_KINDS).toContain(reply.kind);
        expect(reply.kind).not.toBe('EVENT');
        if (reply.kind === 'ERROR') {
          const error = reply as ErrorReply;
          expect(ERROR_CODES).toContain(error.code);
          expect(error.code).not.toBe('internal');
          expect(error.message.length).toBeGreaterThan(0);
          expect(error.message).not.toContain('\n');
        }
      }),
      { numRuns: 600 },
    );
    expect(await store.data.list('')).toEqual([]);
  });
});
