import { describe, expect, it } from 'vitest';
import { ChainCache, DEFAULT_CHAIN_CACHE_SIZE, type VerifiedChain } from './chain-cache.js';
import type { Grant } from './types.js';

const chain = (name: string): VerifiedChain => ({
  grant: [] as unknown as Grant,
  principal: `principal-${name}`,
  holder: `holder-${name}`,
  blockIds: [name],
});

describe('§6.4 ChainCache', () => {
  it('stores and returns chains by token', () => {
    const cache = new ChainCache();
    const a = chain('a');
    cache.set('pg1.a', a);
    expect(cache.get('pg1.a')).toBe(a);
    expect(cache.get('pg1.b')).toBeUndefined();
    expect(cache.size).toBe(1);
  });

  it('evicts the least recently used chain when full', () => {
    const cache = new ChainCache(2);
    cache.set('a', chain('a'));
    cache.set('b', chain('b'));
    cache.get('a');
    cache.set('c', chain('c'));
    expect(cache.size).toBe(2);
    expect(cache.get('b')).toBeUndefined();
    expect(cache.get('a')).toBeDefined();
    expect(cache.get('c')).toBeDefined();
    cache.set('d', chain('d'));
    expect(cache.get('a')).toBeUndefined();
  });

  it('re-setting a token refreshes it without growing', () => {
    const cache = new ChainCache(2);
    cache.set('a', chain('a'));
    cache.set('b', chain('b'));
    cache.set('a', chain('a2'));
    cache.set('c', chain('c'));
    expect(cache.size).toBe(2);
    expect(cache.get('a')?.blockIds).toEqual(['a2']);
    expect(cache.get('b')).toBeUndefined();
  });

  it('never holds more than its bound', () => {
    const cache = new ChainCache(5);
    for (let i = 0; i < 50; i++) cache.set(`t${i}`, chain(String(i)));
    expect(cache.size).toBe(5);
    expect(cache.get('t49')).toBeDefined();
    expect(cache.get('t44')).toBeUndefined();
  });

  it('never holds more token characters than its bound, and skips a token longer than it', () => {
    const cache = new ChainCache(100, 10);
    cache.set('aaaa', chain('a'));
    cache.set('bbbb', chain('b'));
    cache.set('cccc', chain('c'));
    expect(cache.size).toBe(2);
    expect(cache.get('aaaa')).toBeUndefined();
    cache.set('x'.repeat(11), chain('x'));
    expect(cache.get('x'.repeat(11))).toBeUndefined();
    expect(cache.size).toBe(2);
  });

  it('stores nothing with a bound of 0, and clears', () => {
    const none = new ChainCache(0);
    none.set('a', chain('a'));
    expect(none.size).toBe(0);
    const cache = new ChainCache();
    cache.set('a', chain('a'));
    cache.clear();
    expect(cache.size).toBe(0);
    expect(DEFAULT_CHAIN_CACHE_SIZE).toBeGreaterThan(0);
  });
});

describe('§6.4 ChainCache bounds are inclusive', () => {
  it('keeps a token exactly as long as the character bound', () => {
    const cache = new ChainCache(10, 5);
    cache.set('abcde', chain('a'));
    expect(cache.get('abcde')).toEqual(chain('a'));
  });

  it('keeps tokens that fill the character bound exactly, evicting nothing', () => {
    const cache = new ChainCache(10, 10);
    cache.set('aaaaa', chain('a'));
    cache.set('bbbbb', chain('b'));
    expect(cache.size).toBe(2);
    expect(cache.get('aaaaa')).toEqual(chain('a'));
  });
});
