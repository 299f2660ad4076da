import type { IncomingMessage, ServerResponse } from 'node:http';
import type { BrowserPolicy } from './browser-policy.js';

/**
 * Applies a BrowserPolicy to a request on a Node HTTP server: a refusal (a sentence in plain
 * text) or a preflight answer is written, and true returned; otherwise the CORS headers are set
 * on `response` and the server goes on (false).
 */
export function answeredByPolicy(
  policy: BrowserPolicy,
  request: IncomingMessage,
  response: ServerResponse,
  protocol: 'http:' | 'https:',
): boolean {
  const verdict = policy.check({
    method: request.method ?? '',
    protocol,
    header: (name) => {
      const value = request.headers[name];
      return typeof value === 'string' ? value : null;
    },
  });
  if (verdict.kind === 'refuse') {
    request.resume();
    response.writeHead(verdict.status, { 'content-type': 'text/plain; charset=utf-8' });
    response.end(`${verdict.message}\n`);
    return true;
  }
  for (const [name, value] of Object.entries(verdict.headers)) response.setHeader(name, value);
  if (verdict.kind === 'preflight') {
    request.resume();
    response.writeHead(204).end();
    return true;
  }
  return false;
}
