import type { IncomingMessage, ServerResponse } from 'node:http';
import { DEFAULT_MAX_REQUEST_BODY_SIZE } from '@modelcontextprotocol/server';

/** The body of a POST that exceeds the MCP handler's own limit is refused before it is read whole. */
export const MAX_BODY_BYTES = DEFAULT_MAX_REQUEST_BODY_SIZE;

/** Reads a request body, up to `limit` bytes; undefined when it is larger. */
async function readBody(req: IncomingMessage, limit: number): Promise<Buffer | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    const bytes = chunk as Buffer;
    size += bytes.length;
    if (size > limit) return undefined;
    chunks.push(bytes);
  }
  return Buffer.concat(chunks);
}

/**
 * The web-standard Request for a Node request (the MCP SDK's HTTP entry is a fetch handler),
 * or undefined when its body is over the limit. `signal` aborts when the client goes away.
 */
export async function toWebRequest(
  req: IncomingMessage,
  origin: string,
  signal: AbortSignal,
): Promise<Request | undefined> {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined) continue;
    for (const item of Array.isArray(value) ? value : [value]) headers.append(name, item);
  }
  const method = req.method ?? 'GET';
  const init: RequestInit = { method, headers, signal };
  if (method !== 'GET' && method !== 'HEAD') {
    const body = await readBody(req, MAX_BODY_BYTES);
    if (body === undefined) return undefined;
    init.body = new Uint8Array(body);
  }
  return new Request(new URL(req.url ?? '/', origin), init);
}

/** Writes a web-standard Response (JSON or an SSE stream) to a Node response. */
export async function writeWebResponse(res: ServerResponse, response: Response): Promise<void> {
  res.statusCode = response.status;
  response.headers.forEach((value, name) => {
    res.setHeader(name, value);
  });
  if (response.body === null) {
    res.end();
    return;
  }
  res.flushHeaders();
  const reader = response.body.getReader();
  const stop = (): void => {
    reader.cancel().catch(() => {});
  };
  res.once('close', stop);
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      res.write(value);
    }
  } finally {
    res.off('close', stop);
    res.end();
  }
}
