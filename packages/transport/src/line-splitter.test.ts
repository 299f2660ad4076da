import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { LineSplitter } from './line-splitter.js';

function collect(maxBytes?: number) {
  const lines: string[] = [];
  const refused: string[] = [];
  const splitter = new LineSplitter(
    { line: (text) => lines.push(text), refuse: (why) => refused.push(why) },
    maxBytes,
  );
  return { splitter, lines, refused };
}

const bytes = (text: string): Buffer => Buffer.from(text, 'utf8');

describe('§2.3 LineSplitter', () => {
  it('splits lines however the stream is chunked', () => {
    const line = fc
      .string({ unit: 'grapheme', maxLength: 40 })
      .filter((s) => !/[\r\n]/.test(s) && s !== '');
    fc.assert(
      fc.property(
        fc.array(line, { maxLength: 12 }),
        fc.array(fc.nat(), { maxLength: 8 }),
        (texts, cuts) => {
          const whole = bytes(texts.map((t) => `${t}\n`).join(''));
          const points = [...new Set(cuts.map((c) => c % (whole.length + 1)))].sort(
            (a, b) => a - b,
          );
          const { splitter, lines, refused } = collect();
          let from = 0;
          for (const point of [...points, whole.length]) {
            splitter.push(whole.subarray(from, point));
            from = point;
          }
          splitter.end();
          expect(lines).toEqual(texts);
          expect(refused).toEqual([]);
        },
      ),
    );
  });

  it('keeps a multi-byte character split across chunks', () => {
    const { splitter, lines } = collect();
    const whole = bytes('😀é\n');
    for (const byte of whole) splitter.push(Buffer.from([byte]));
    expect(lines).toEqual(['😀é']);
  });

  it('§2.1 refuses an oversized line while reading and reads the next one', () => {
    const { splitter, lines, refused } = collect(10);
    splitter.push(bytes('0123456'));
    splitter.push(bytes('789ab'));
    expect(refused).toHaveLength(1);
    splitter.push(bytes('cdef\nok\n'));
    expect(lines).toEqual(['ok']);
    expect(refused).toHaveLength(1);
  });

  it('§2.1 refuses an oversized line that arrives in one chunk', () => {
    const { splitter, lines, refused } = collect(4);
    splitter.push(bytes('12345\n1234\n'));
    expect(refused).toHaveLength(1);
    expect(lines).toEqual(['1234']);
  });

  it('never holds more than the limit of a line', () => {
    const { splitter, refused } = collect(1024);
    for (let i = 0; i < 1000; i++) splitter.push(Buffer.alloc(1000, 0x61));
    expect(refused).toHaveLength(1);
    expect(splitter.partial).toBe(true);
  });

  it('accepts a line of exactly the limit, with LF or CRLF', () => {
    const { splitter, lines, refused } = collect(4);
    splitter.push(bytes('1234\n'));
    splitter.push(bytes('12'));
    splitter.push(bytes('34\r\n'));
    expect(lines).toEqual(['1234', '1234']);
    expect(refused).toEqual([]);
  });

  it('drops one CR before LF and skips blank lines', () => {
    const { splitter, lines } = collect();
    splitter.push(bytes('\n\r\na\r\nb\n\n'));
    expect(lines).toEqual(['a', 'b']);
  });

  it('refuses a line that is not UTF-8', () => {
    const { splitter, lines, refused } = collect();
    splitter.push(Buffer.from([0x7b, 0xc3, 0x28, 0x7d, 0x0a]));
    splitter.push(bytes('"\uFFFD" is fine\n'));
    expect(refused).toEqual(['the frame is not valid UTF-8']);
    expect(lines).toEqual(['"\uFFFD" is fine']);
  });

  it('delivers an unterminated last line at the end, unless it was refused', () => {
    const first = collect(4);
    first.splitter.push(bytes('a\nlast'));
    first.splitter.end();
    expect(first.lines).toEqual(['a', 'last']);
    const second = collect(4);
    second.splitter.push(bytes('too long'));
    second.splitter.end();
    expect(second.lines).toEqual([]);
    expect(second.refused).toHaveLength(1);
  });
});
