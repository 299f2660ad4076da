import { MAX_FRAME_BYTES } from '@parley/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FrameConnection, FrameReceiver } from '../src/index.js';
import { FrameInbox } from './fixtures/frame-inbox.js';
import type { RawPeer } from './fixtures/raw-stream.js';
import { ask } from './fixtures/test-handler.js';

/** The in-flight limit every contract fixture is started with. */
export const CONTRACT_MAX_IN_FLIGHT = 2;

/** A stream transport under test: a server running the TestHandler, and ways to reach it. */
export interface StreamFixture {
  /** A FrameConnection to the server through the transport's dialler. */
  dial(receiver: FrameReceiver): Promise<FrameConnection>;
  /** A fresh raw connection, for bytes no dialler would send. */
  raw(): Promise<RawPeer>;
  /** Lets every held request of the raw peer's server finish. */
  releaseAll(peer: RawPeer): void;
  /** Closes raw peers and the server. */
  stop(): Promise<void>;
}

/**
 * The contract every stream transport (TCP, TLS, stdio) passes: §2.1 framing and the 1 MiB cap,
 * §2.2 replies, §2.3 NDJSON, and the per-connection limits.
 */
export function describeStreamTransport(name: string, start: () => Promise<StreamFixture>): void {
  describe(`§2 stream transport contract: ${name}`, () => {
    let fixture: StreamFixture;
    beforeAll(async () => {
      fixture = await start();
    });
    afterAll(async () => {
      await fixture.stop();
    });

    async function dialInbox(): Promise<{ connection: FrameConnection; inbox: FrameInbox }> {
      const inbox = new FrameInbox();
      return { connection: await fixture.dial(inbox), inbox };
    }

    it('round trip: HELLO gets BRIEF and ASK gets ANSWER', async () => {
      const { connection, inbox } = await dialInbox();
      connection.send({ parley: 1, id: 'h', verb: 'HELLO' });
      connection.send(ask('a', 'echo', { word: 'hi' }));
      expect(await inbox.final('h')).toMatchObject({ kind: 'BRIEF', re: 'h' });
      expect(await inbox.final('a')).toMatchObject({ kind: 'ANSWER', data: { word: 'hi' } });
      await connection.close();
      expect(inbox.closeError).toBeUndefined();
    });

    it('§2.2 EVENT replies come before the final reply', async () => {
      const { connection, inbox } = await dialInbox();
      connection.send(ask('e', 'events', { count: 3 }));
      await inbox.final('e');
      expect(inbox.frames.map((f) => f.kind)).toEqual(['EVENT', 'EVENT', 'EVENT', 'ANSWER']);
      await connection.close();
    });

    it('§2.2 replies on one connection come in completion order, correlated by re', async () => {
      const { connection, inbox } = await dialInbox();
      connection.send(ask('slow', 'hold', { key: `k-${name}` }));
      connection.send(ask('fast', 'echo'));
      await inbox.final('fast');
      connection.send(ask('free', 'release', { key: `k-${name}` }));
      await inbox.final('slow');
      const order = inbox.frames.map((f) => f.re);
      expect(order.indexOf('fast')).toBeLessThan(order.indexOf('slow'));
      await connection.close();
    });

    it('§2.1 an oversized frame gets bad_frame (re "") and the next frame is answered', async () => {
      const peer = await fixture.raw();
      const filler = 'a'.repeat(MAX_FRAME_BYTES);
      const big = `{"parley":1,"id":"big","verb":"ASK","capability":"echo","params":{"x":"${filler}"}}\n`;
      for (let at = 0; at < big.length; at += 65_536) peer.write(big.slice(at, at + 65_536));
      peer.send(ask('after', 'echo', { ok: true }));
      const [refused, answer] = await peer.take(2);
      expect(refused).toMatchObject({ kind: 'ERROR', code: 'bad_frame', re: '' });
      expect(answer).toMatchObject({ kind: 'ANSWER', re: 'after', data: { ok: true } });
      peer.end();
    });

    it('garbage lines get bad_frame and the connection goes on', async () => {
      const peer = await fixture.raw();
      const garbage = [
        Buffer.from([0xff, 0xfe, 0x00, 0x0a]),
        'not json at all\n',
        '[1,2]\n',
        '{"parley":1}\n',
      ];
      for (const line of garbage) {
        peer.write(line);
        expect(await peer.next()).toMatchObject({ kind: 'ERROR', code: 'bad_frame' });
      }
      peer.send(ask('ok', 'echo'));
      expect(await peer.next()).toMatchObject({ kind: 'ANSWER', re: 'ok' });
      peer.end();
    });

    it('§2.3 a UTF-8 sequence split across writes arrives intact', async () => {
      const peer = await fixture.raw();
      const bytes = Buffer.from(`${JSON.stringify(ask('u', 'echo', { s: 'é€😀' }))}\n`);
      for (const byte of bytes) {
        peer.write(Buffer.from([byte]));
        await new Promise((resolve) => setImmediate(resolve));
      }
      expect(await peer.next()).toMatchObject({ re: 'u', data: { s: 'é€😀' } });
      peer.end();
    });

    it('§2.3 CRLF terminators and blank lines are tolerated', async () => {
      const peer = await fixture.raw();
      peer.write(`\n\r\n${JSON.stringify(ask('crlf', 'echo'))}\r\n`);
      peer.send(ask('lf', 'echo'));
      const replies = await peer.take(2);
      expect(replies.map((r) => r.re)).toEqual(['crlf', 'lf']);
      peer.end();
    });

    it('§2.3 a last frame without newline is answered at end of input', async () => {
      const peer = await fixture.raw();
      peer.write(JSON.stringify(ask('last', 'echo')));
      peer.end();
      expect(await peer.next()).toMatchObject({ re: 'last', kind: 'ANSWER' });
      await peer.ended;
    });

    it('a handler that rejects is answered ERROR internal with the request id', async () => {
      const peer = await fixture.raw();
      peer.send(ask('boom', 'fail'));
      expect(await peer.next()).toMatchObject({ re: 'boom', kind: 'ERROR', code: 'internal' });
      peer.end();
    });

    it('requests over the in-flight limit get ERROR limit; the connection stays up', async () => {
      const peer = await fixture.raw();
      for (let i = 0; i < CONTRACT_MAX_IN_FLIGHT; i++) {
        peer.send(ask(`held${i}`, 'hold', { key: `limit-${name}-${i}` }));
      }
      peer.send(ask('excess', 'echo'));
      expect(await peer.next()).toMatchObject({ re: 'excess', kind: 'ERROR', code: 'limit' });
      fixture.releaseAll(peer);
      const released = await peer.take(CONTRACT_MAX_IN_FLIGHT);
      expect(released.map((r) => r.kind)).toEqual(
        Array.from({ length: CONTRACT_MAX_IN_FLIGHT }, () => 'ANSWER'),
      );
      peer.send(ask('again', 'echo'));
      expect(await peer.next()).toMatchObject({ re: 'again', kind: 'ANSWER' });
      peer.end();
    });

    it('many frames written at once are all answered', async () => {
      const { connection, inbox } = await dialInbox();
      const count = 200;
      for (let i = 0; i < count; i++) {
        connection.send(ask(`m${i}`, i % 2 === 0 ? 'echo' : 'events', { count: 1 }));
        if (i % CONTRACT_MAX_IN_FLIGHT === 1) await inbox.final(`m${i}`);
      }
      await inbox.until((box) => box.frames.filter((f) => f.kind !== 'EVENT').length === count);
      expect(inbox.frames.some((f) => f.kind === 'ERROR')).toBe(false);
      await connection.close();
    });
  });
}
