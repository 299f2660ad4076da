import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { modelConfigFrom, OpenAiElicitor } from '@parley/models';
import {
  CaseService,
  casesApi,
  KEY_FILE_NAME,
  readOrCreateKeyFile,
  SqliteCaseStore,
} from '../src/index.js';
import { serveHandler } from './serve-cases.js';

/** What the fake model answers one request with: an HTTP status and a JSON body. */
export type ModelReply = { status: number; body: object };

export type CasesWithModel = {
  /** The cases API's origin (`call(origin, …)` of serve-cases.ts). */
  origin: string;
  store: SqliteCaseStore;
  close(): Promise<void>;
};

/**
 * The cases API on a fresh SQLite store, its interviews drafted by an OpenAI-compatible fake
 * model over real HTTP on 127.0.0.1: `reply` answers each request the elicitor sends, given the
 * request's body. The elicitor's key is `key`; no retries, a 5 s deadline.
 */
export async function casesWithModel(
  reply: (body: string) => ModelReply,
  key: string,
): Promise<CasesWithModel> {
  const model = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const answer = reply(Buffer.concat(chunks).toString('utf8'));
      response.writeHead(answer.status, { 'content-type': 'application/json' });
      response.end(JSON.stringify(answer.body));
    });
  });
  await new Promise<void>((resolve) => model.listen(0, '127.0.0.1', resolve));
  const port = (model.address() as AddressInfo).port;
  const config = modelConfigFrom(
    { provider: 'openai', model: 'test-model', baseUrl: `http://127.0.0.1:${port}/v1` },
    { OPENAI_API_KEY: key },
  );
  if (config === null) throw new Error('no model config');
  const folder = mkdtempSync(join(tmpdir(), 'parley-cases-model-'));
  const store = new SqliteCaseStore(folder, readOrCreateKeyFile(join(folder, KEY_FILE_NAME)));
  const elicitor = new OpenAiElicitor({ ...config, timeoutMs: 5_000, maxRetries: 0 });
  const server = await serveHandler(casesApi(new CaseService({ store, elicitor })));
  return {
    origin: server.origin,
    store,
    async close() {
      await server.close();
      await store.close();
      await new Promise<void>((resolve) => {
        model.close(() => resolve());
        model.closeAllConnections();
      });
      rmSync(folder, { recursive: true, force: true });
    },
  };
}
