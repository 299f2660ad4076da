import { describe, expect, it } from 'vitest';
import { hostPortText, parseHostPort } from './host-port.js';
import { TransportError } from './transport-error.js';

describe('HOST:PORT, one grammar', () => {
  it('reads a name or address, IPv6 in brackets, and an empty host as 127.0.0.1', () => {
    expect(parseHostPort('127.0.0.1:8765')).toEqual({ host: '127.0.0.1', port: 8765 });
    expect(parseHostPort('localhost:0')).toEqual({ host: 'localhost', port: 0 });
    expect(parseHostPort('[::1]:80')).toEqual({ host: '::1', port: 80 });
    expect(parseHostPort(':7447')).toEqual({ host: '127.0.0.1', port: 7447 });
  });

  it('refuses anything else with one sentence', () => {
    for (const bad of ['8765', '127.0.0.1', 'host:99999', 'a b:1', '::1:80', 'h:', '[x]:1']) {
      expect(() => parseHostPort(bad)).toThrow(TransportError);
      expect(() => parseHostPort(bad)).toThrow(/^expected HOST:PORT/);
    }
  });

  it('writes it back, IPv6 in brackets', () => {
    expect(hostPortText({ host: '::1', port: 80 })).toBe('[::1]:80');
    expect(hostPortText(parseHostPort('example.org:443'))).toBe('example.org:443');
  });
});
