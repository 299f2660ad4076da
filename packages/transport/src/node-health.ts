import type { IncomingMessage, ServerResponse } from 'node:http';
import { healthAnswer, isHealthPath, type ReadinessProbe } from './health.js';

/**
 * Answers a health path on a Node HTTP server (see health.ts) and returns true; false for any
 * other path, which the server then handles. `stopping` is read when the answer is made.
 */
export function answeredHealth(
  request: IncomingMessage,
  response: ServerResponse,
  path: string,
  probe: ReadinessProbe | undefined,
  stopping: () => boolean,
): boolean {
  if (!isHealthPath(path)) return false;
  request.resume();
  healthAnswer(request.method ?? '', path, probe, stopping()).then((answer) => {
    if (answer === undefined || response.destroyed) return;
    const headers: Record<string, string | number> = {
      'content-type': 'application/json',
      'content-length': Buffer.byteLength(answer.body),
      'cache-control': 'no-store',
    };
    if (answer.allow !== undefined) headers.allow = answer.allow;
    response.writeHead(answer.status, headers);
    response.end(request.method === 'HEAD' ? undefined : answer.body);
  });
  return true;
}
