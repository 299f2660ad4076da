import type { Elicitor, ElicitRequest } from '@parley/consensus';
import { ModelError } from '@parley/models';
import { describe, expect, it } from 'vitest';
import { elicitEndpoint } from './elicit-endpoint.js';

const OPTIONS = [
  { id: 'a', cost: 30, reviewed: true },
  { id: 'b', cost: 90, reviewed: false },
];

/** An elicitor that holds each call until released, and records what each was shown. */
class HeldElicitor implements Elicitor {
  readonly label = 'held';
  readonly seen: ElicitRequest[] = [];
  readonly #release: (() => void)[] = [];

  async elicit(request: ElicitRequest): Promise<unknown> {
    this.seen.push(request);
    await new Promise<void>((resolve) => this.#release.push(resolve));
    return { hard: [{ attr: 'cost', op: '<=', value: 60 }] };
  }

  releaseAll(): void {
    for (const release of this.#release.splice(0)) release();
  }
}

function post(body: unknown, type = 'application/json'): Request {
  return new Request('http://127.0.0.1/elicit', {
    method: 'POST',
    headers: { 'content-type': type },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
}

/** Lets the event loop turn until `done` holds (each request reads its body first). */
async function until(done: () => boolean): Promise<void> {
  while (!done()) await new Promise((resolve) => setImmediate(resolve));
}

async function answerOf(response: Response): Promise<{ status: number; body: unknown }> {
  return { status: response.status, body: JSON.parse(await response.text()) };
}

describe('the page server’s /elicit (the interview’s model seam, key on the server)', () => {
  it('says who drafts', async () => {
    const handle = elicitEndpoint(new HeldElicitor(), false, () => undefined);
    const got = await answerOf(await handle(new Request('http://127.0.0.1/elicit')));
    expect(got).toEqual({ status: 200, body: { elicitor: 'held', model: false } });
  });

  it('refuses bad input in one sentence, and the elicitor is never called', async () => {
    const elicitor = new HeldElicitor();
    const handle = elicitEndpoint(elicitor, true, () => undefined);
    const cases: [Request, number, RegExp][] = [
      [post({ answers: {}, options: OPTIONS }, 'text/plain'), 415, /Content-Type/],
      [post('{"answers": '), 400, /./],
      [post([1]), 400, /send \{"answers", "options"\}/],
      [post({ answers: { system: 'x' }, options: OPTIONS }), 400, /unknown prompt "system"/],
      [post({ answers: { fallback: 7 }, options: OPTIONS }), 400, /must be text/],
      [post({ answers: { fallback: '  ' }, options: OPTIONS }), 400, /answer at least one/],
      [post({ answers: { fallback: 'x' }, options: 'all' }), 400, /options must be a list/],
      [post({ answers: { fallback: 'x'.repeat(300_000) }, options: OPTIONS }), 413, /too long/],
    ];
    for (const [request, status, message] of cases) {
      const got = await answerOf(await handle(request));
      expect(got.status).toBe(status);
      expect((got.body as { error: string }).error).toMatch(message);
    }
    expect(elicitor.seen).toEqual([]);
  });

  it('each request drafts one participant’s answers alone; a third at once waits its turn', async () => {
    const elicitor = new HeldElicitor();
    const handle = elicitEndpoint(elicitor, true, () => undefined);
    const ana = handle(post({ answers: { private_info: 'ana secret' }, options: OPTIONS }));
    const bob = handle(post({ answers: { unacceptable: 'over 60 is out' }, options: OPTIONS }));
    await until(() => elicitor.seen.length === 2);
    const third = await answerOf(
      await handle(post({ answers: { fallback: 'x' }, options: OPTIONS })),
    );
    expect(third.status).toBe(429);
    elicitor.releaseAll();
    const answers = await Promise.all([ana, bob].map(async (r) => answerOf(await r)));
    expect(answers.map((a) => a.status)).toEqual([200, 200]);
    expect(elicitor.seen.map((s) => s.answers)).toEqual([
      { private_info: 'ana secret' },
      { unacceptable: 'over 60 is out' },
    ]);
    expect(JSON.stringify(elicitor.seen[1])).not.toContain('ana secret');
    expect(elicitor.seen[0]?.attributes.map((a) => a.name)).toEqual(['cost', 'reviewed']);
    // Once they are done, the next one is drafted.
    const next = handle(post({ answers: { fallback: 'x' }, options: OPTIONS }));
    await until(() => elicitor.seen.length === 3);
    elicitor.releaseAll();
    expect((await next).status).toBe(200);
  });

  it('a model failure is 502 with its one sentence (already redacted by @parley/models), logged', async () => {
    const failing: Elicitor = {
      label: 'failing',
      async elicit() {
        throw new ModelError('auth', 'model m at http://127.0.0.1:1 answered 401: bad key');
      },
    };
    const logged: string[] = [];
    const handle = elicitEndpoint(failing, true, (line) => logged.push(line));
    const got = await answerOf(
      await handle(post({ answers: { fallback: 'x' }, options: OPTIONS })),
    );
    expect(got).toEqual({
      status: 502,
      body: { error: 'model m at http://127.0.0.1:1 answered 401: bad key' },
    });
    expect(logged).toEqual(['[interview] model m at http://127.0.0.1:1 answered 401: bad key']);
  });
});
