import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  type ErrorReply,
  encodeGrant,
  issueGrant,
  keyPairFromSeed,
  proofTarget,
  publicKeyString,
  type Request,
  signProof,
} from '@parley/protocol';
import { defineService, MemoryStore, SqliteStore, type Store } from '@parley/service';
import { afterAll, describe, expect, it } from 'vitest';
import { PostgresStore } from '../src/index.js';
import { DATABASE_URL, dropSchema, freshSchema } from './database.js';

const SERVICE_ID = 'ids.example';
const principal = await keyPairFromSeed(new Uint8Array(32).fill(1));
const agent = await keyPairFromSeed(new Uint8Array(32).fill(2));
const token = encodeGrant(
  await issueGrant(principal, {
    sub: publicKeyString(agent),
    caveats: [{ svc: [SERVICE_ID] }, { can: ['*'] }],
    iat: 1_790_000_000,
  }),
);

const folder = mkdtempSync(join(tmpdir(), 'parley-ids-'));
const schema = freshSchema();
const stores: [string, () => Promise<Store>][] = [
  ['MemoryStore', async () => new MemoryStore()],
  ['SqliteStore', async () => new SqliteStore({ folder })],
  ['PostgresStore', () => PostgresStore.open(DATABASE_URL, { schema })],
];
const opened: Store[] = [];
afterAll(async () => {
  for (const store of opened) await store.close();
  rmSync(folder, { recursive: true, force: true });
  await dropSchema(schema);
});

/** Ids no store can keep as they came: U+0000 (PostgreSQL), lone surrogates (UTF-8), controls. */
const BAD_IDS = ['a\u0000b', '\u0000', 'x\ud800', '\udfffx', 'line\nbreak', 'esc\u001b[2J'];

describe('§2.1 ids a store cannot hold are bad_frame, on every store', () => {
  it.each(stores)('%s', async (_name, open) => {
    const store = await open();
    opened.push(store);
    const logged: unknown[] = [];
    const service = defineService({
      id: SERVICE_ID,
      name: 'Ids',
      trust: [publicKeyString(principal)],
      store,
      clock: () => 1_790_000_000,
      log: (_message, error) => logged.push(error),
    });
    service.intent('ids.touch', {
      plan: () => [
        {
          summary: 'Touch',
          effects: [{ op: 'other', target: 'thing' }],
          undoWindow: 60,
          action: null,
        },
      ],
      apply: () => null,
      revert: () => undefined,
      transactional: true,
    });
    /**
     * A frame with the agent's grant and proof (an auto INTENT's proof signs its frame id,
     * §4.3.1). A lone surrogate has no canonical form (§10), so such a frame carries a proof that
     * cannot verify: the id is refused before any proof is looked at.
     */
    const signed = async (frame: Record<string, unknown>): Promise<string> => {
      const request = { parley: 1, ...frame } as unknown as Request;
      request.grants = [token];
      const ts = 1_790_000_000;
      request.proof = await signProof(agent, {
        aud: SERVICE_ID,
        verb: request.verb,
        target: proofTarget(request),
        ts,
      }).catch(() => ({ key: publicKeyString(agent), ts, sig: 'unsigned' }));
      return JSON.stringify(request);
    };
    for (const id of BAD_IDS) {
      const frames = [
        JSON.stringify({ parley: 1, id, verb: 'HELLO' }),
        await signed({ id, verb: 'INTENT', capability: 'ids.touch', auto: true }),
        await signed({ id: 'c1', verb: 'COMMIT', proposal: id, hash: 'h' }),
        await signed({ id: 'u1', verb: 'UNDO', receipt: id }),
        JSON.stringify({ parley: 1, id: 'e1', verb: 'EXPAND', handle: id }),
      ];
      for (const text of frames) {
        const reply = (await service.handleText(text)) as ErrorReply;
        expect(reply).toMatchObject({ kind: 'ERROR', code: 'bad_frame' });
        expect(reply.message).toContain('no control character');
        expect(reply.message).toContain('no unpaired surrogate');
      }
    }
    // A well-formed id in any script still works end to end.
    const auto = await service.handleText(
      await signed({ id: 'заказ-😀', verb: 'INTENT', capability: 'ids.touch', auto: true }),
    );
    expect(auto).toMatchObject({ kind: 'RECEIPT', auto: true, re: 'заказ-😀' });
    expect(logged).toEqual([]);
    await service.close();
  });
});
