import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ErrorReply } from '@parley/protocol';
import { defineService, MemoryStore, SqliteStore, type Store } from '@parley/service';
import { afterAll, describe, expect, it } from 'vitest';
import { PostgresStore } from '../src/index.js';
import { grantFor, PRINCIPAL, SERVICE_ID, signedFrame } from './agent.js';
import { DATABASE_URL, dropSchema, freshSchema } from './database.js';

const { token } = await grantFor();

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
      trust: [PRINCIPAL],
      store,
      log: (_message, error) => logged.push(error),
    });
    service.intent('acme.touch', {
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
     * A frame with the agent's grant and proof, then `id` set in `field`. A lone surrogate has
     * no canonical form (§10), so no proof can cover it: the frame is signed over a placeholder,
     * and the id is refused before any proof is looked at.
     */
    const signed = async (body: Record<string, unknown>, field: string, id: string) =>
      JSON.stringify({ ...(await signedFrame(body, token)), [field]: id });
    for (const id of BAD_IDS) {
      const frames = [
        JSON.stringify({ parley: 1, id, verb: 'HELLO' }),
        await signed({ verb: 'INTENT', capability: 'acme.touch', auto: true }, 'id', id),
        await signed({ verb: 'COMMIT', proposal: 'p_x', hash: 'h' }, 'proposal', id),
        await signed({ verb: 'UNDO', receipt: 'r_x' }, 'receipt', id),
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
      JSON.stringify(
        await signedFrame(
          { id: 'заказ-😀', verb: 'INTENT', capability: 'acme.touch', auto: true },
          token,
        ),
      ),
    );
    expect(auto).toMatchObject({ kind: 'RECEIPT', auto: true, re: 'заказ-😀' });
    expect(logged).toEqual([]);
    await service.close();
  });
});
