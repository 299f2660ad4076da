import { describe, expect, it } from 'vitest';
import { BrowserPolicy, REMEMBERED_HOSTS } from './browser-policy.js';

describe('BrowserPolicy: Host answers remembered', () => {
  it('a remembered Host gets the answer it got first, accepted or refused', () => {
    const policy = new BrowserPolicy({ allowedHosts: ['parley.lan'] }, '127.0.0.1');
    for (let round = 0; round < 3; round++) {
      expect(policy.acceptsHost('127.0.0.1:7449')).toBe(true);
      expect(policy.acceptsHost('parley.lan')).toBe(true);
      expect(policy.acceptsHost('evil.example')).toBe(false);
      expect(policy.acceptsHost('evil.example:80')).toBe(false);
      expect(policy.acceptsHost('')).toBe(false);
    }
  });

  it('past REMEMBERED_HOSTS distinct Hosts, every answer is still the rule’s', () => {
    const policy = new BrowserPolicy({}, '127.0.0.1');
    for (let i = 0; i < 3 * REMEMBERED_HOSTS; i++) {
      expect(policy.acceptsHost(`10.0.0.${i % 250}:${i}`)).toBe(true);
      expect(policy.acceptsHost(`rebound${i}.example`)).toBe(false);
      expect(policy.acceptsHost(`page${i}.localhost`)).toBe(true);
    }
    expect(policy.acceptsHost('evil.example')).toBe(false);
  });
});
