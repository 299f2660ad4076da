import type { IncomingMessage, ServerResponse } from 'node:http';

/** Reads a request body, up to `limit` bytes; undefined when it is larger. */
async function readBody(request: IncomingMessage, limit: number): Promise<Buffer | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request) {
    const bytes = chunk as Buffer;
    size += bytes.length;
    if (size > limit) return undefined;
    chunks.push(bytes);
  }
  return Buffer.concat(chunks);
}

/** How a Node request becomes a web-standard one. */
export interface WebRequestOptions {
  /** The origin its URL is resolved against, e.g. `http://127.0.0.1:8080`. */
  origin: string;
  /** Aborts when the client goes away. */
  signal: AbortSignal;
  /** The largest body read (bytes); past it the result is undefined and nothing more is kept. */
  maxBodyBytes: number;
}

/**
 * The web-standard Request for a request on a Node server, so a `(Request) => Response` handler
 * (the HTTP bridge, the MCP SDK's) can sit behind it; undefined when its body is over
 * `maxBodyBytes`, for the caller to answer 413. Repeated headers keep every value.
 */
export async function toWebRequest(
  request: IncomingMessage,
  options: WebRequestOptions,
): Promise<Request | undefined> {
  const headers = new Headers();
  for (const [name, value] of Object.entries(request.headers)) {
    if (value === undefined) continue;
    for (const item of Array.isArray(value) ? value : [value]) headers.append(name, item);
  }
  const method = request.method ?? 'GET';
  const init: RequestInit = { method, headers, signal: options.signal };
  if (method !== 'GET' && method !== 'HEAD') {
    const body = await readBody(request, options.maxBodyBytes);
    if (body === undefined) return undefined;
    init.body = new Uint8Array(body);
  }
  return new Request(new URL(request.url ?? '/', options.origin), init);
}

/**
 * Writes a web-standard Response (whole, or a stream such as NDJSON lines or SSE events, each
 * chunk as it comes) to a Node response; a client that goes away cancels the stream.
 */
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
