import { Readable } from 'node:stream';
import { PyFloat } from '@parley/consensus';
import { describe, expect, it } from 'vitest';
import { RawArguments } from './raw-arguments.js';

const call = (id: number | string, name: string, args: string): string =>
  `{"jsonrpc": "2.0", "id": ${JSON.stringify(id)}, "method": "tools/call", "params": {"name": "${name}", "arguments": ${args}}}`;

describe('RawArguments', () => {
  it("keeps the host's number typing, by request id and tool, once", () => {
    const raw = new RawArguments();
    raw.record(call(7, 'parley_decide', '{"spec": {"cost": 600.0, "big": 12345678901234567890}}'));
    expect(raw.take(7, 'parley_check_party')).toBeUndefined();
    raw.record(call(7, 'parley_decide', '{"spec": {"cost": 600.0, "big": 12345678901234567890}}'));
    const args = raw.take(7, 'parley_decide');
    const spec = args?.spec as { cost: unknown; big: unknown };
    expect(spec.cost).toBeInstanceOf(PyFloat);
    expect(spec.big).toBe(12345678901234567890n);
    expect(raw.take(7, 'parley_decide')).toBeUndefined();
    raw.record(call('7', 'parley_decide', '{}'));
    expect(raw.take(7, 'parley_decide')).toBeUndefined();
    expect(raw.take('7', 'parley_decide')).toEqual({});
  });

  it('ignores other messages and text that is not JSON', () => {
    const raw = new RawArguments();
    raw.record('{"jsonrpc": "2.0", "id": 1, "method": "tools/list"}');
    raw.record('{"tools/call": ');
    raw.record(call(1, 'parley_decide', '[1]'));
    expect(raw.take(1, 'parley_decide')).toBeUndefined();
  });

  it('taps lines split across chunks and passes every byte through unchanged', async () => {
    const raw = new RawArguments();
    const text = `${call(1, 'parley_decide', '{"spec": {"name": "Zoë", "x": 1.0}}')}\r\n${call(2, 'parley_decide', '{}')}\n`;
    const bytes = Buffer.from(text);
    // One cut inside the two bytes of "ë", one inside the line break.
    const umlaut = bytes.indexOf(Buffer.from('ë')) + 1;
    const newline = bytes.indexOf(Buffer.from('\r\n')) + 1;
    const chunks = [
      bytes.subarray(0, umlaut),
      bytes.subarray(umlaut, newline),
      bytes.subarray(newline),
    ];
    const out: Buffer[] = [];
    for await (const chunk of Readable.from(chunks).pipe(raw.tap())) out.push(chunk as Buffer);
    expect(Buffer.concat(out).toString()).toBe(text);
    expect(raw.take(1, 'parley_decide')?.spec).toEqual({ name: 'Zoë', x: expect.anything() });
    expect(raw.take(2, 'parley_decide')).toEqual({});
  });
});
