import { describe, expect, it } from 'vitest';
import { isBare, renderScalar, renderString } from './scalar.js';

describe('§9.1 lean notation: scalars', () => {
  it('renders null as -, booleans as words, numbers by Number::toString', () => {
    expect(renderScalar(null)).toBe('-');
    expect(renderScalar(true)).toBe('true');
    expect(renderScalar(false)).toBe('false');
    expect(renderScalar(42)).toBe('42');
    expect(renderScalar(-0)).toBe('0');
    expect(renderScalar(1.5)).toBe('1.5');
    expect(renderScalar(1e21)).toBe('1e+21');
    expect(renderScalar(1e-7)).toBe('1e-7');
  });

  it('renders a non-finite number as null, as JSON would carry it', () => {
    expect(renderScalar(Number.NaN)).toBe('-');
    expect(renderScalar(Number.POSITIVE_INFINITY)).toBe('-');
  });

  it.each([
    'hello world',
    'ana@example.com',
    '2026-09-24T15:00:00Z',
    "it's (ok)!",
    '1:1 with Ana',
    '~^<>=*#$%&?',
    'a-b',
    '-5x',
    '1.2.3',
  ])('keeps %j bare', (text) => {
    expect(isBare(text)).toBe(true);
    expect(renderString(text)).toBe(text);
  });

  it.each([
    ['', '""'],
    [' lead', '" lead"'],
    ['trail ', '"trail "'],
    ['a, b', '"a, b"'],
    ['-', '"-"'],
    ['true', '"true"'],
    ['false', '"false"'],
    ['null', '"null"'],
    ['123', '"123"'],
    ['-1.5e+3', '"-1.5e+3"'],
    ['0', '"0"'],
    ['café', '"café"'],
    ['two\nlines', '"two\\nlines"'],
    ['say "hi"', '"say \\"hi\\""'],
    ['back\\slash', '"back\\\\slash"'],
    ['tab\tbell\u0007', '"tab\\tbell\\u0007"'],
    ['del\u007f', '"del\u007f"'],
    ['a{b}', '"a{b}"'],
  ])('quotes %j as §10 does', (text, quoted) => {
    expect(renderString(text)).toBe(quoted);
  });

  it('quotes strings that only look numeric in part', () => {
    expect(renderString('01')).toBe('01');
    expect(renderString('1.')).toBe('1.');
    expect(renderString('1e5')).toBe('"1e5"');
  });

  it('escapes a lone surrogate instead of throwing', () => {
    expect(renderString('a\ud800')).toBe('"a\\ud800"');
    expect(renderString('🎉')).toBe('"🎉"');
  });
});
