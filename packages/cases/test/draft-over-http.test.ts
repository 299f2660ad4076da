/**
 * The interview's model behind the cases API (module 03): an OpenAI-compatible fake provider
 * over real HTTP on 127.0.0.1. The model sees one party's own answers and the options'
 * attributes, nothing of anyone else; what it proposes is a draft the party must still confirm;
 * what it makes up is rejected; a failing model is a 502 that names no key.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chatCompletion, modelConfigFrom, OpenAiElicitor } from '@parley/models';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CaseService,
  casesApi,
  KEY_FILE_NAME,
  readOrCreateKeyFile,
  SqliteCaseStore,
} from '../src/index.js';
import { NEW_LEASE } from './fixture.js';
import { call, serveHandler } from './serve-cases.js';

const KEY = 'sk-test-cases-0123456789abcdef';
const seen: string[] = [];
const replies: { status: number; body: object }[] = [];
let model: Server;
let modelOrigin: string;
let folder: string;
let store: SqliteCaseStore;
let server: { origin: string; close(): Promise<void> };

beforeAll(async () => {
  model = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (c: Buffer) => chunks.push(c));
    request.on('end', () => {
      seen.push(Buffer.concat(chunks).toString('utf8'));
      const next = replies.shift() ?? {
        status: 500,
        body: { error: { message: 'nothing queued' } },
      };
      response.writeHead(next.status, { 'content-type': 'application/json' });
      response.end(JSON.stringify(next.body));
    });
  });
  await new Promise<void>((resolve) => model.listen(0, '127.0.0.1', resolve));
  modelOrigin = `http://127.0.0.1:${(model.address() as AddressInfo).port}`;
  const config = modelConfigFrom(
    { provider: 'openai', model: 'test-model', baseUrl: `${modelOrigin}/v1` },
    { OPENAI_API_KEY: KEY },
  );
  if (config === null) throw new Error('no model config');
  folder = mkdtempSync(join(tmpdir(), 'parley-cases-model-'));
  store = new SqliteCaseStore(folder, readOrCreateKeyFile(join(folder, KEY_FILE_NAME)));
  const elicitor = new OpenAiElicitor({ ...config, timeoutMs: 5_000, maxRetries: 0 });
  server = await serveHandler(casesApi(new CaseService({ store, elicitor })));
});

afterAll(async () => {
  await server.close();
  await store.close();
  await new Promise<void>((resolve) => {
    model.close(() => resolve());
    model.closeAllConnections();
  });
  rmSync(folder, { recursive: true, force: true });
});

describe("module 03: drafting a party's rules with a model over HTTP", () => {
  it("the model sees one party's answers only; its draft binds nothing until confirmed", async () => {
    const made = (await call(server.origin, 'cases', null, NEW_LEASE)).json();
    const link = Object.fromEntries(
      made.links.map((l: { name: string; link: string }) => [l.name, l.link]),
    ) as Record<string, string>;
    await call(server.origin, 'answer', link.Ben as string, {
      prompt: 'unacceptable',
      text: 'BEN-SECRET-MARKER under four weeks',
    });
    await call(server.origin, 'answer', link.Ana as string, {
      prompt: 'unacceptable',
      text: 'Never above 1000 a month.',
    });
    replies.push({
      status: 200,
      body: chatCompletion(
        JSON.stringify({
          claims: [],
          hard: [
            { attr: 'rent', op: '<=', value: 1000, source_prompt_id: 'unacceptable' },
            { attr: 'bens_limit', op: '==', value: 'anything', source_prompt_id: 'unacceptable' },
          ],
          utility: [],
          unclear: [],
        }),
      ),
    });
    const drafted = await call(server.origin, 'draft', link.Ana as string, {});
    expect(drafted.status).toBe(200);
    const you = drafted.json().you;
    expect(you.draft.hard.map((h: { constraint: unknown }) => h.constraint)).toEqual([
      { attr: 'rent', op: '<=', value: 1000 },
    ]);
    expect(you.draft.rejected).toHaveLength(1);
    expect(you.sheet).toBe('draft');
    const sent = seen.at(-1) as string;
    expect(sent).toContain('Never above 1000 a month.');
    expect(sent).not.toContain('BEN-SECRET-MARKER');
    // Ben's page shows Ana drafting, nothing of what.
    const benSees = (await call(server.origin, 'case', link.Ben as string)).text;
    expect(benSees).not.toContain('1000 a month');
  });

  it('a claim the model extracted is dropped by its party: gone from the next version and the sheet', async () => {
    // 03-private-elicitation: every extracted item, a claim too, can be removed before
    // confirming; the cases API takes the engine's own change (remove_claim) through `edit`.
    const made = (await call(server.origin, 'cases', null, NEW_LEASE)).json();
    const ana = made.links[0].link as string;
    await call(server.origin, 'answer', ana, { prompt: 'unacceptable', text: 'Never above 1000.' });
    const kept = 'We need to move in by June.';
    const dropped = 'ANA-DROPPED-CLAIM my ceiling is really 1200.';
    replies.push({
      status: 200,
      body: chatCompletion(
        JSON.stringify({
          claims: [kept, dropped],
          hard: [{ attr: 'rent', op: '<=', value: 1000, source_prompt_id: 'unacceptable' }],
          utility: [],
          unclear: [],
        }),
      ),
    });
    const first = (await call(server.origin, 'draft', ana, {})).json().you.draft;
    expect(first.claims).toEqual([kept, dropped]);
    // A claim that is not in the draft is refused in one sentence, and nothing changes.
    const wrong = await call(server.origin, 'edit', ana, {
      ops: [{ op: 'remove_claim', claim: 'never said' }],
    });
    expect(wrong.status).toBe(400);
    expect(wrong.json().message).toBe('no claim "never said" to remove');
    const unchanged = (await call(server.origin, 'case', ana)).json().you.draft;
    expect(unchanged.version).toBe(first.version);
    const edited = await call(server.origin, 'edit', ana, {
      ops: [{ op: 'remove_claim', claim: dropped }],
    });
    expect(edited.status).toBe(200);
    const next = edited.json().you.draft;
    expect(next.version).not.toBe(first.version);
    expect(next.claims).toEqual([kept]);
    expect(next.rendered).not.toContain('ANA-DROPPED-CLAIM');
    const confirmed = await call(server.origin, 'confirm', ana, {
      hard: next.hard.map((h: { id: string }) => h.id),
      version: next.version,
    });
    expect(confirmed.status).toBe(200);
    const you = confirmed.json().you;
    expect(you.sheet).toBe('confirmed');
    expect(you.sheet_confirmed.version).toBe(next.version);
    expect(you.sheet_confirmed.rendered).toContain(kept);
    expect(you.sheet_confirmed.rendered).not.toContain('ANA-DROPPED-CLAIM');
    // The stored sheet itself (what the round is decided on) holds the kept claim only.
    const record = await store.load(made.case as string);
    const party = record?.shared.parties.find((p) => p.name === 'Ana')?.id as string;
    expect(record?.privates[party]?.sheet?.claims).toEqual([kept]);
  });

  it('a failing model is a 502 in one sentence that names no key', async () => {
    const made = (await call(server.origin, 'cases', null, NEW_LEASE)).json();
    const ana = made.links[0].link as string;
    await call(server.origin, 'answer', ana, { prompt: 'unacceptable', text: 'Never above 1000.' });
    replies.push({
      status: 401,
      body: { error: { message: `bad key ${KEY}`, type: 'error', code: null } },
    });
    const failed = await call(server.origin, 'draft', ana, {});
    expect(failed.status).toBe(502);
    expect(failed.json().error).toBe('model');
    expect(failed.text).not.toContain(KEY);
  });
});
