import type { FinalReply, Frame, Request } from '@parley/protocol';
import { dial, type FrameConnection } from '@parley/transport';

type Waiter = { resolve: (reply: FinalReply) => void; reject: (error: Error) => void };

/**
 * A client that sends frames exactly as given (so the very same frame can go to two instances)
 * and resolves each with its final reply; EVENTs are skipped. When the connection dies, every
 * request still waiting rejects.
 */
export class RawPeer {
  readonly #connection: FrameConnection;
  readonly #waiting: Map<string, Waiter>;

  private constructor(connection: FrameConnection, waiting: Map<string, Waiter>) {
    this.#connection = connection;
    this.#waiting = waiting;
  }

  static async connect(url: string): Promise<RawPeer> {
    const waiting = new Map<string, Waiter>();
    const failAll = (error: Error): void => {
      for (const waiter of waiting.values()) waiter.reject(error);
      waiting.clear();
    };
    const connection = await dial(url, {
      receiver: {
        onFrame(frame: Frame) {
          const reply = frame as FinalReply | { kind: 'EVENT'; re: string };
          if (!('re' in reply) || reply.kind === 'EVENT') return;
          waiting.get(reply.re)?.resolve(reply);
          waiting.delete(reply.re);
        },
        onClose: (error) => failAll(error ?? new Error('closed')),
      },
    });
    return new RawPeer(connection, waiting);
  }

  send(frame: Request): Promise<FinalReply> {
    const reply = new Promise<FinalReply>((resolve, reject) => {
      this.#waiting.set(frame.id, { resolve, reject });
    });
    this.#connection.send(frame);
    return reply;
  }

  close(): Promise<void> {
    return this.#connection.close();
  }
}
