import { describe, expect, it } from 'vitest';
import { DEFAULT_TCP_PORT, DEFAULT_TLS_PORT, parseParleyUrl } from './parley-url.js';

describe('§2.3 transport URLs', () => {
  it('parses stream URLs with default and explicit ports', () => {
    expect(parseParleyUrl('parley://cal.example.com')).toEqual({
      scheme: 'parley',
      host: 'cal.example.com',
      port: DEFAULT_TCP_PORT,
    });
    expect(parseParleyUrl('parleys://Cal.Example.com:9000/')).toEqual({
      scheme: 'parleys',
      host: 'cal.example.com',
      port: 9000,
    });
    expect(parseParleyUrl('parleys://127.0.0.1')).toMatchObject({ port: DEFAULT_TLS_PORT });
    expect(parseParleyUrl('parley://[::1]:7000')).toEqual({
      scheme: 'parley',
      host: '::1',
      port: 7000,
    });
    expect(parseParleyUrl('PARLEY://h:0')).toEqual({ scheme: 'parley', host: 'h', port: 0 });
  });

  it('parses stdio: and http(s) endpoints', () => {
    expect(parseParleyUrl('stdio:')).toEqual({ scheme: 'stdio' });
    const http = parseParleyUrl('https://api.example.com/parley');
    expect(http.scheme === 'https' && http.url.pathname).toBe('/parley');
  });

  it.each([
    ['ftp://host', 'unknown scheme'],
    ['cal.example.com:7447', 'unknown scheme'],
    ['no-scheme', 'no scheme'],
    ['parley://', 'host is missing'],
    ['parley://:7447', 'host is missing'],
    ['parley://host:99999', 'port'],
    ['parley://host:-1', 'port'],
    ['parley://host:12ab', 'port'],
    ['parley://host/path', 'no path'],
    ['parley://host?x=1', 'no path'],
    ['parley://user@host', 'user info'],
    ['parley://ho st', 'not a host'],
    ['parley://[zz::1]', 'not a host'],
    ['stdio:node service.js', 'alone'],
    ['http://', 'not a valid'],
    ['http://u:p@host/', 'credentials'],
  ])('refuses %s (%s)', (url, why) => {
    expect(() => parseParleyUrl(url)).toThrowError(expect.objectContaining({ reason: 'bad_url' }));
    expect(() => parseParleyUrl(url)).toThrow(why);
  });
});
