import { describe, expect, it } from 'vitest';
import type { OpenApiDocument } from './document.js';
import { upstreamBase } from './upstream-base.js';

const doc = (servers?: OpenApiDocument['servers']): OpenApiDocument => ({
  openapi: '3.1.0',
  info: { title: 'T', version: '1' },
  ...(servers === undefined ? {} : { servers }),
});

describe('the upstream base URL', () => {
  it('an origin gets the relative server path; a URL with a path is used as it is', () => {
    expect(upstreamBase(doc([{ url: '/api/v3' }]), 'http://127.0.0.1:8080')).toBe(
      'http://127.0.0.1:8080/api/v3',
    );
    expect(upstreamBase(doc([{ url: '/api/v3' }]), 'http://127.0.0.1:8080/v9/')).toBe(
      'http://127.0.0.1:8080/v9',
    );
  });

  it("without one, the document's absolute server URL with its variables' defaults", () => {
    expect(upstreamBase(doc([{ url: 'https://api.example.com/' }]), undefined)).toBe(
      'https://api.example.com',
    );
    const templated = [
      { url: 'https://{region}.example.com', variables: { region: { default: 'eu' } } },
    ];
    expect(upstreamBase(doc(templated), undefined)).toBe('https://eu.example.com');
  });

  it('refuses what it cannot use, in one sentence', () => {
    expect(() => upstreamBase(doc(), undefined)).toThrow('names no server');
    expect(() => upstreamBase(doc([{ url: '/v1' }]), undefined)).toThrow('is relative');
    expect(() => upstreamBase(doc(), 'ftp://h')).toThrow('http:// or https://');
    expect(() => upstreamBase(doc(), 'https://user:pw@h')).toThrow('carries credentials');
    expect(() => upstreamBase(doc(), 'not a url')).toThrow('is not a URL');
  });
});
