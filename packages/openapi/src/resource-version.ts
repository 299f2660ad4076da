import { createHash } from 'node:crypto';
import { type Backend, call } from './read-capability.js';
import type { UpstreamResponse } from './upstream.js';
import { upstreamError } from './upstream-error.js';

/**
 * What a write's resource looked like when the proposal was made, so a COMMIT can tell whether
 * the upstream changed since (§5.1: the proposal declared its effects against that state).
 * Compared by ETag when the upstream gives one, else by a digest of the body.
 */
export type ResourceVersion = {
  /** The GET that read it. */
  url: string;
  /** The resource did not exist (404): a PUT would create it. */
  absent: boolean;
  etag: string | null;
  /** b64url SHA-256 of the body text. */
  digest: string;
};

export function versionOf(url: string, response: UpstreamResponse): ResourceVersion {
  return {
    url,
    absent: response.status === 404 || response.status === 410,
    etag: response.headers.get('etag'),
    digest: createHash('sha256').update(response.text).digest('base64url'),
  };
}

/**
 * Reads the resource at `url` as it is now. Absent (404, 410) is a version too; any other answer
 * that is not 2xx is the upstream's error (a 5xx is `unavailable`, not a change).
 */
export async function readVersion(backend: Backend, url: string): Promise<ResourceVersion> {
  const read = await call(() => backend.upstream.send({ method: 'GET', url }));
  const version = versionOf(url, read);
  if (!version.absent && (read.status < 200 || read.status >= 300)) {
    throw upstreamError(read, 'GET', url, backend.redactor);
  }
  return version;
}

/** Whether two reads saw the same resource: same ETag when both have one, else the same body. */
export function sameVersion(before: ResourceVersion, now: ResourceVersion): boolean {
  if (before.absent || now.absent) return before.absent === now.absent;
  if (before.etag !== null && now.etag !== null) return weakTag(before.etag) === weakTag(now.etag);
  return before.digest === now.digest;
}

/**
 * RFC 9110 §13.1.1: If-Match compares strongly, so only a strong ETag may be sent; the upstream
 * then refuses (412) a write that races a change made after the check.
 */
export function ifMatchOf(version: ResourceVersion | null): Record<string, string> {
  if (version?.etag === null || version === null || version.etag.startsWith('W/')) return {};
  return { 'if-match': version.etag };
}

function weakTag(etag: string): string {
  return etag.replace(/^W\//, '');
}
