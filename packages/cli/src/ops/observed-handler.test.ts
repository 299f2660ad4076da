import { type FinalReply, MAX_FRAME_CONTAINERS } from '@parley/protocol';
import { defineService } from '@parley/service';
import { describe, expect, it, vi } from 'vitest';
import { observedHandler, type RequestRecord } from './observed-handler.js';

const receipt = (re: string): FinalReply =>
  ({
    parley: 1,
    id: 'r1',
    re,
    kind: 'RECEIPT',
    receipt: {
      id: 'rc1',
      proposal: 'p1',
      capability: 'shop.order',
      summary: 'Order',
      at: 1,
      effects: [],
      cost: { amount: 1200, currency: 'EUR' },
      undo: null,
    },
  }) as unknown as FinalReply;

function observe(reply: (re: string) => FinalReply, frame: object, peer?: string) {
  const records: RequestRecord[] = [];
  const handler = observedHandler(
    {
      handleRead: async (read) =>
        reply((read.refused === undefined ? (read.frame as { id: string }) : { id: '' }).id),
    },
    (record) => records.push(record),
  );
  return {
    records,
    done: handler.handleText(JSON.stringify(frame), peer === undefined ? {} : { peer }),
  };
}

describe('observedHandler: what a log hears of a request', () => {
  it('an ASK: id, verb, capability, outcome, duration, peer, in that order', async () => {
    const { records, done } = observe(
      (re) => ({ parley: 1, id: 'r1', re, kind: 'ANSWER', data: { secret: 'x' } }),
      { parley: 1, id: 'a1', verb: 'ASK', capability: 'calendar.find', params: { q: 'secret' } },
      'http 127.0.0.1:5',
    );
    await done;
    expect(Object.keys(records[0] ?? {})).toEqual([
      'id',
      'verb',
      'capability',
      'outcome',
      'durationMs',
      'peer',
    ]);
    expect(records[0]).toMatchObject({
      id: 'a1',
      verb: 'ASK',
      capability: 'calendar.find',
      outcome: 'answer',
      peer: 'http 127.0.0.1:5',
    });
  });

  it('a COMMIT: the receipt names the capability and what was reserved, after the peer', async () => {
    const { records, done } = observe(
      receipt,
      {
        parley: 1,
        id: 'c1',
        verb: 'COMMIT',
        proposal: 'p1',
      },
      'stdio',
    );
    await done;
    expect(Object.keys(records[0] ?? {})).toEqual([
      'id',
      'verb',
      'outcome',
      'durationMs',
      'peer',
      'capability',
      'reserved',
    ]);
    expect(records[0]).toMatchObject({
      capability: 'shop.order',
      outcome: 'receipt',
      reserved: { amount: 1200, currency: 'EUR' },
    });
  });

  it('text that is not a frame: no id, verb unknown, no peer when none is known', async () => {
    const records: RequestRecord[] = [];
    const handler = observedHandler(
      {
        handleRead: async () =>
          ({
            parley: 1,
            id: 'e',
            re: '',
            kind: 'ERROR',
            code: 'bad_frame',
            message: 'no',
          }) as FinalReply,
      },
      (record) => records.push(record),
    );
    await handler.handleText('not json', {});
    expect(records[0]).toEqual({
      id: '',
      verb: 'unknown',
      outcome: 'bad_frame',
      durationMs: expect.any(Number),
    });
  });

  it('reads the frame once, and the handler gets it read', async () => {
    const parse = vi.spyOn(JSON, 'parse');
    try {
      const { records, done } = observe(
        (re) => ({ parley: 1, id: 'r1', re, kind: 'ANSWER', data: {} }),
        { parley: 1, id: 'a2', verb: 'ASK', capability: 'calendar.find' },
      );
      expect((await done).re).toBe('a2');
      expect(records[0]).toMatchObject({ id: 'a2', verb: 'ASK', outcome: 'answer' });
      expect(parse).toHaveBeenCalledTimes(1);
    } finally {
      parse.mockRestore();
    }
  });

  it('a frame the service refuses unparsed is not parsed for the log either', async () => {
    const service = defineService({ id: 'x.example', name: 'X', trust: [] });
    const records: RequestRecord[] = [];
    const handler = observedHandler(service, (record) => records.push(record));
    const many = Array.from({ length: MAX_FRAME_CONTAINERS + 1 }, () => '[]').join(',');
    const parse = vi.spyOn(JSON, 'parse');
    try {
      const reply = await handler.handleText(
        `{"parley":1,"id":"big","verb":"ASK","capability":"x","params":{"x":[${many}]}}`,
        {},
      );
      expect(reply).toMatchObject({ re: '', kind: 'ERROR', code: 'bad_frame' });
      expect(parse).not.toHaveBeenCalled();
    } finally {
      parse.mockRestore();
    }
    // The log tells what the reply tells: no id, no verb (the frame was never read).
    expect(records[0]).toMatchObject({ id: '', verb: 'unknown', outcome: 'bad_frame' });
  });
});
