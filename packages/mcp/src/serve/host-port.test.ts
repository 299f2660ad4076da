import { describe, expect, it } from 'vitest';
import { parseHostPort } from './host-port.js';

describe('parseHostPort', () => {
  it('reads HOST:PORT, IPv6 in brackets', () => {
    expect(parseHostPort('127.0.0.1:8765')).toEqual({ host: '127.0.0.1', port: 8765 });
    expect(parseHostPort('localhost:0')).toEqual({ host: 'localhost', port: 0 });
    expect(parseHostPort('[::1]:80')).toEqual({ host: '::1', port: 80 });
  });

  it('refuses anything else with one sentence', () => {
    for (const bad of ['8765', '127.0.0.1', ':80', 'host:99999', 'a b:1', '::1:80']) {
      expect(() => parseHostPort(bad)).toThrow(/^expected HOST:PORT/);
    }
  });
});
