/**
 * The fetch side of the HTTP bridge (what a browser page dials): against a real bridge on a real
 * socket, and against hand-made response bodies for the line rules of §2.1.
 */
import { MAX_FRAME_BYTES } from '@parley/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dialFetch, FetchFrameConnection, listen, type ParleyServer } from '../src/index.js';
import { FrameInbox } from './fixtures/frame-inbox.js';
import { ask, TestHandler } from './fixtures/test-handler.js';

const encoder = new TextEncoder();

/** A fetch that answers every POST with `chunks` as an NDJSON body (status 200 unless given). */
function answering(chunks: Uint8Array[], status = 200, type = 'application/x-ndjson') {
  return async (): Promise<Response> =>
    new Response(
      new ReadableStream<Uint8Array>({
        start(controller) {
          for (const chunk of chunks) controller.enqueue(chunk);
          controller.close();
        },
      }),
      { status, headers: { 'content-type': type } },
    );
}

const line = (frame: object): string => `${JSON.stringify(frame)}\n`;
const answer = (re: string, data: object) =>
  ({ parley: 1, id: `s${re}`, re, kind: 'ANSWER', data }) as const;

describe('§2.4 FetchFrameConnection against a real bridge', () => {
  let server: ParleyServer;
  beforeAll(async () => {
    server = await listen('http://127.0.0.1:0/parley', new TestHandler(), {
      onError: () => undefined,
    });
  });
  afterAll(() => server.close({ deadline: 500 }));

  it('round-trips frames, EVENTs delivered as they stream', async () => {
    const inbox = new FrameInbox();
    const connection = await dialFetch(server.address, { receiver: inbox });
    connection.send({ parley: 1, id: 'h', verb: 'HELLO' });
    connection.send(ask('e', 'events', { count: 3 }));
    connection.send(ask('u', 'echo', { text: 'Grüße, ✓ 🎉' }));
    expect(await inbox.final('h')).toMatchObject({ kind: 'BRIEF' });
    expect(await inbox.final('u')).toMatchObject({ data: { text: 'Grüße, ✓ 🎉' } });
    await inbox.final('e');
    expect(inbox.frames.filter((f) => f.re === 'e').map((f) => f.kind)).toEqual([
      'EVENT',
      'EVENT',
      'EVENT',
      'ANSWER',
    ]);
    await connection.close();
    expect(inbox.closed).toBe(true);
    expect(() => connection.send(ask('late', 'echo'))).toThrow(/closed/);
  });

  it('a path the bridge does not serve, or nobody listening, is a lost frame with the reason', async () => {
    const inbox = new FrameInbox();
    const origin = new URL(server.address).origin;
    const elsewhere = await dialFetch(`${origin}/elsewhere`, { receiver: inbox });
    elsewhere.send(ask('nowhere', 'echo'));
    await inbox.until((box) => box.lost.length === 1);
    expect(inbox.lost[0]).toMatchObject({ id: 'nowhere', error: { reason: 'bad_reply' } });
    expect(inbox.lost[0]?.error.message).toMatch(/HTTP 404 .*no Parley endpoint here/);
    const closed = await dialFetch('http://127.0.0.1:9/parley', { receiver: inbox });
    closed.send(ask('refused', 'echo'));
    await inbox.until((box) => box.lost.length === 2);
    expect(inbox.lost[1]).toMatchObject({ id: 'refused', error: { reason: 'unreachable' } });
  });

  it('close() aborts an exchange in flight, which is then not reported as lost', async () => {
    const inbox = new FrameInbox();
    const connection = await dialFetch(server.address, { receiver: inbox });
    connection.send(ask('slow', 'sleep', { ms: 2_000 }));
    await new Promise((resolve) => setTimeout(resolve, 50));
    await connection.close();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(inbox.lost).toEqual([]);
    expect(inbox.closed).toBe(true);
  });

  it('refuses to dial what a browser cannot reach', async () => {
    const receiver = new FrameInbox();
    await expect(dialFetch('parley://127.0.0.1:7447', { receiver })).rejects.toMatchObject({
      reason: 'bad_url',
      message: expect.stringMatching(/HTTP bridge/),
    });
    await expect(dialFetch('not a url', { receiver })).rejects.toMatchObject({ reason: 'bad_url' });
  });

  it('refuses to send a frame over 1 MiB (§2.1)', async () => {
    const connection = await dialFetch(server.address, { receiver: new FrameInbox() });
    expect(() =>
      connection.send(ask('big', 'echo', { text: 'é'.repeat(MAX_FRAME_BYTES / 2) })),
    ).toThrow(/exceeds 1 MiB/);
    await connection.close();
  });
});

describe('§2.1 the lines of a fetched NDJSON body', () => {
  const dialWith = (fetch: typeof globalThis.fetch, inbox: FrameInbox) =>
    new FetchFrameConnection({ url: new URL('http://bridge.test/p'), fetch }, inbox);

  it('joins a line split across chunks, even inside a UTF-8 sequence, and takes CRLF', async () => {
    const bytes = encoder.encode(`${line(answer('a', { t: 'ü✓' })).replace('\n', '\r\n')}`);
    const inbox = new FrameInbox();
    const cut = bytes.indexOf(0xc3) + 1;
    dialWith(
      answering([bytes.subarray(0, 5), bytes.subarray(5, cut), bytes.subarray(cut)]),
      inbox,
    ).send(ask('a', 'echo'));
    expect(await inbox.final('a')).toMatchObject({ data: { t: 'ü✓' } });
  });

  it('reads an unterminated last line, skips blank lines', async () => {
    const inbox = new FrameInbox();
    const text = `\n\n${line(answer('x', { n: 1 })).trimEnd()}`;
    dialWith(answering([encoder.encode(text)]), inbox).send(ask('x', 'echo'));
    expect(await inbox.final('x')).toMatchObject({ data: { n: 1 } });
    expect(inbox.malformed).toEqual([]);
  });

  it('refuses a line over 1 MiB while it streams and a line that is not UTF-8; reads on', async () => {
    const inbox = new FrameInbox();
    const chunk = new Uint8Array(256 * 1024).fill(0x61);
    const chunks = [
      ...Array.from({ length: 5 }, () => chunk),
      encoder.encode('\n'),
      new Uint8Array([0x7b, 0xff, 0x7d, 0x0a]),
      encoder.encode(line(answer('y', { ok: true }))),
    ];
    dialWith(answering(chunks), inbox).send(ask('y', 'echo'));
    expect(await inbox.final('y')).toMatchObject({ data: { ok: true } });
    expect(inbox.malformed.map((e) => e.message)).toEqual([
      expect.stringMatching(/exceeds 1048576 bytes/),
      expect.stringMatching(/not valid UTF-8/),
    ]);
  });

  it('a body that ends before the final reply, or is not NDJSON, loses the frame', async () => {
    const inbox = new FrameInbox();
    const event = { parley: 1, id: 's1', re: 'z', kind: 'EVENT', message: 'half way' };
    dialWith(answering([encoder.encode(line(event))]), inbox).send(ask('z', 'echo'));
    dialWith(answering([], 200, 'text/html'), inbox).send(ask('w', 'echo'));
    dialWith(answering([], 413, 'text/plain'), inbox).send(ask('v', 'echo'));
    await inbox.until((box) => box.lost.length === 3);
    const reasons = Object.fromEntries(inbox.lost.map((l) => [l.id, l.error.reason]));
    expect(reasons).toEqual({ z: 'bad_reply', w: 'bad_reply', v: 'too_large' });
    expect(inbox.frames.map((f) => f.kind)).toEqual(['EVENT']);
  });
});
