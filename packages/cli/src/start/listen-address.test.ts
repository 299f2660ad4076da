import { describe, expect, it } from 'vitest';
import { CliError } from '../cli-error.js';
import { listensEverywhere, parseListenHost, reachableUrl } from './listen-address.js';

describe('parley start --host', () => {
  it('takes IPv4 addresses: every interface, or one', () => {
    expect(parseListenHost('0.0.0.0')).toBe('0.0.0.0');
    expect(parseListenHost('10.1.2.3')).toBe('10.1.2.3');
    expect(listensEverywhere('0.0.0.0')).toBe(true);
    expect(listensEverywhere('127.0.0.1')).toBe(false);
  });

  it('refuses names, IPv6, ports and empty text in one sentence', () => {
    for (const bad of ['localhost', '::', '0.0.0.0:8080', '', '256.0.0.1']) {
      expect(() => parseListenHost(bad)).toThrow(CliError);
      expect(() => parseListenHost(bad)).toThrow(/^--host takes an IPv4 address/);
    }
  });

  it('prints what listens on every interface at 127.0.0.1, and anything else as it is', () => {
    expect(reachableUrl('http://0.0.0.0:8080')).toBe('http://127.0.0.1:8080');
    expect(reachableUrl('parley://0.0.0.0:7447')).toBe('parley://127.0.0.1:7447');
    expect(reachableUrl('http://0.0.0.0:8447/parley')).toBe('http://127.0.0.1:8447/parley');
    expect(reachableUrl('http://10.0.0.5:8080')).toBe('http://10.0.0.5:8080');
  });
});
