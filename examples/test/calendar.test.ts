import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  type AnswerReply,
  type BriefReply,
  type ClarifyReply,
  type ErrorReply,
  type JsonObject,
  mergePatch,
  type ProposalsReply,
  publicKeyString,
  type ReceiptReply,
  renderLens,
} from '@parley/protocol';
import { SqliteStore } from '@parley/service';
import { afterAll, describe, expect, it } from 'vitest';
import { CALENDAR_ID, createCalendarService } from '../src/calendar/index.js';
import { agentFor, principalKey } from './support.js';

const NOW = Date.UTC(2026, 8, 21, 12, 0, 0) / 1000; // Mon 2026-09-21 12:00Z
const clock = () => NOW;
const folder = mkdtempSync(join(tmpdir(), 'parley-calendar-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

describe('example: calendar (cal.example.com), the whole story', async () => {
  const principal = await principalKey();
  const trust = [publicKeyString(principal)];
  const store = new SqliteStore({ folder });
  const calendar = await createCalendarService({ trust, clock, store });
  const agent = await agentFor(
    calendar,
    principal,
    2,
    [{ svc: [CALENDAR_ID] }, { can: ['calendar.*'] }],
    clock,
  );
  const find = async (query: string) =>
    (
      (await agent.send({
        verb: 'ASK',
        capability: 'calendar.find',
        params: { query },
      })) as AnswerReply
    ).data as {
      events: { id: string; start: string }[];
    };
  let receiptId = '';

  it('§4.1 HELLO lists find and reschedule', async () => {
    const brief = (await agent.send({ verb: 'HELLO' })) as BriefReply;
    expect(renderLens(brief)).toBe(
      [
        '# Example Calendar (cal.example.com)',
        'Your calendar. Find meetings and move them.',
        'ask calendar.find(query?: string, day?: date) — Search events',
        'intent calendar.reschedule(event: string — id or title, to: datetime) — Move a meeting [risk:low]',
      ].join('\n'),
    );
  });

  it('§4.2 ASK finds both 1:1s with Ana', async () => {
    const { events } = await find('ana');
    expect(events.map((e) => e.id)).toEqual(['e42', 'e77']);
  });

  it('§4.3 rescheduling "1:1 with Ana" asks "Which Ana?", and an option patch resolves it', async () => {
    const params = { event: '1:1 with Ana', to: '2026-09-24T15:00:00Z' };
    const clarify = (await agent.send({
      verb: 'INTENT',
      capability: 'calendar.reschedule',
      params,
    })) as ClarifyReply;
    expect(clarify.kind).toBe('CLARIFY');
    expect(clarify.question).toBe('Which Ana?');
    expect(clarify.options.map((o) => o.params)).toEqual([{ event: 'e42' }, { event: 'e77' }]);
    expect(clarify.options[0]?.label).toContain('Ana Ruiz (design)');
    const picked = mergePatch(params, clarify.options[0]?.params) as JsonObject;
    const proposals = (await agent.send({
      verb: 'INTENT',
      capability: 'calendar.reschedule',
      params: picked,
    })) as ProposalsReply;
    expect(proposals.kind).toBe('PROPOSALS');
    const [p] = proposals.proposals;
    expect(p).toMatchObject({
      summary: 'Move "1:1 with Ana" to Thu 15:00',
      risk: 'low',
      cost: null,
      undo: { window: 86_400 },
      effects: [
        {
          op: 'update',
          target: 'event/e42',
          field: 'start',
          from: '2026-09-22T14:00:00Z',
          to: '2026-09-24T15:00:00Z',
        },
        { op: 'send', target: 'ana.ruiz@example.com', detail: 'update notification' },
      ],
    });
    // Nothing moved yet (§4.3).
    expect((await find('ana')).events[0]?.start).toBe('2026-09-22T14:00:00Z');
    const receipt = (await agent.send({
      verb: 'COMMIT',
      proposal: p?.id,
      hash: p?.hash,
    })) as ReceiptReply;
    expect(receipt).toMatchObject({
      kind: 'RECEIPT',
      receipt: { undo: { until: NOW + 86_400 }, result: { event: 'e42' } },
    });
    receiptId = receipt.receipt.id;
    expect((await find('ana')).events.find((e) => e.id === 'e42')?.start).toBe(
      '2026-09-24T15:00:00Z',
    );
  });

  it('§7: a past `to` is invalid_params with a fix that works', async () => {
    const params = { event: 'e77', to: '2025-09-24T15:00:00Z' };
    const error = (await agent.send({
      verb: 'INTENT',
      capability: 'calendar.reschedule',
      params,
    })) as ErrorReply;
    expect(error).toMatchObject({ code: 'invalid_params' });
    const fixed = mergePatch(params, error.fix?.[0]?.params) as JsonObject;
    expect(
      (await agent.send({ verb: 'INTENT', capability: 'calendar.reschedule', params: fixed })).kind,
    ).toBe('PROPOSALS');
  });

  it('§7: a taken slot is conflict with free-slot fixes that work', async () => {
    const params = { event: 'e77', to: '2026-09-22T09:00:00Z' }; // the Standup
    const error = (await agent.send({
      verb: 'INTENT',
      capability: 'calendar.reschedule',
      params,
    })) as ErrorReply;
    expect(error).toMatchObject({ code: 'conflict' });
    expect(error.fix?.length).toBeGreaterThan(0);
    for (const fix of error.fix ?? []) {
      const fixed = mergePatch(params, fix.params) as JsonObject;
      expect(
        (await agent.send({ verb: 'INTENT', capability: 'calendar.reschedule', params: fixed }))
          .kind,
      ).toBe('PROPOSALS');
    }
  });

  it('§7: an unknown meeting is invalid_params with a did-you-mean fix', async () => {
    const error = (await agent.send({
      verb: 'INTENT',
      capability: 'calendar.reschedule',
      params: { event: 'Standpu', to: '2026-09-25T09:00:00Z' },
    })) as ErrorReply;
    expect(error).toMatchObject({
      code: 'invalid_params',
      fix: [{ params: { event: 'Standup' } }],
    });
  });

  it('§4.5 UNDO restores the start, and the moved meeting survives a restart', async () => {
    await calendar.close();
    await store.close();
    const reopened = new SqliteStore({ folder });
    const again = await createCalendarService({ trust, clock, store: reopened });
    const agent2 = await agentFor(
      again,
      principal,
      2,
      [{ svc: [CALENDAR_ID] }, { can: ['calendar.*'] }],
      clock,
    );
    const moved = (await agent2.send({
      verb: 'ASK',
      capability: 'calendar.find',
      params: { query: 'ana' },
    })) as AnswerReply;
    expect(JSON.stringify(moved.data)).toContain('2026-09-24T15:00:00Z');
    const undone = (await agent2.send({ verb: 'UNDO', receipt: receiptId })) as ReceiptReply;
    expect(undone).toMatchObject({
      kind: 'RECEIPT',
      receipt: {
        undoes: receiptId,
        effects: [
          {
            op: 'update',
            target: 'event/e42',
            from: '2026-09-24T15:00:00Z',
            to: '2026-09-22T14:00:00Z',
          },
          { op: 'send' },
        ],
      },
    });
    const back = (await agent2.send({
      verb: 'ASK',
      capability: 'calendar.find',
      params: { query: 'ana' },
    })) as AnswerReply;
    expect(JSON.stringify(back.data)).toContain('2026-09-22T14:00:00Z');
    await again.close();
    await reopened.close();
  });
});

describe('§5.1 the calendar holds meetings to what was approved (`current`)', async () => {
  const principal = await principalKey();
  const calendar = await createCalendarService({ trust: [publicKeyString(principal)], clock });
  const agent = await agentFor(
    calendar,
    principal,
    2,
    [{ svc: [CALENDAR_ID] }, { can: ['calendar.*'] }],
    clock,
  );
  const propose = async (to: string) => {
    const reply = (await agent.send({
      verb: 'INTENT',
      capability: 'calendar.reschedule',
      params: { event: 'e5', to },
    })) as ProposalsReply;
    const [p] = reply.proposals;
    if (p === undefined) throw new Error(`no proposal: ${JSON.stringify(reply)}`);
    return p;
  };
  const commit = (p: { id: string; hash: string }) =>
    agent.send({ verb: 'COMMIT', proposal: p.id, hash: p.hash });

  it('of two moves proposed from one start, the second is conflict once the first commits', async () => {
    const first = await propose('2026-09-25T09:00:00Z');
    const second = await propose('2026-09-25T11:00:00Z');
    expect((await commit(first)).kind).toBe('RECEIPT');
    const refused = (await commit(second)) as ErrorReply;
    expect(refused).toMatchObject({ code: 'conflict' });
    expect(refused.message).toContain('event/e5.start is "2026-09-25T09:00:00Z" now');
  });

  it('a move cannot be undone once the meeting has moved again', async () => {
    const moved = (await commit(await propose('2026-09-25T13:00:00Z'))) as ReceiptReply;
    const earlier = (await commit(await propose('2026-09-25T16:00:00Z'))) as ReceiptReply;
    const refused = (await agent.send({ verb: 'UNDO', receipt: moved.receipt.id })) as ErrorReply;
    expect(refused).toMatchObject({ code: 'conflict' });
    expect(refused.message).toContain('the commit cannot be undone');
    // The latest move undoes, and then the one before it.
    expect((await agent.send({ verb: 'UNDO', receipt: earlier.receipt.id })).kind).toBe('RECEIPT');
    expect((await agent.send({ verb: 'UNDO', receipt: moved.receipt.id })).kind).toBe('RECEIPT');
  });
});
