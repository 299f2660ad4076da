import { type JsonObject, type JsonValue, ParleyError } from '@parley/protocol';
import {
  clarify,
  type DataAccess,
  dateTimeSeconds,
  didYouMean,
  type PlanContext,
  quoteInput,
  type Service,
} from '@parley/service';
import { defineExample, type ExampleOptions } from '../options.js';
import {
  type CalendarEvent,
  clash,
  eventKey,
  freeSlots,
  isoUtc,
  listEvents,
  seconds,
} from './events.js';
import { seedCalendar } from './seed.js';

export const CALENDAR_ID = 'cal.example.com';
/** Moves can be undone for a day. */
export const RESCHEDULE_UNDO_WINDOW = 86_400;

type MoveAction = { event: string; from: string; to: string };

const WEEKDAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'] as const;
const when = (s: number): string => {
  const d = new Date(s * 1000);
  return `${WEEKDAYS[d.getUTCDay()]} ${isoUtc(s).slice(11, 16)}`;
};

/** The example calendar (cal.example.com): find meetings, move one, undo the move. */
export async function createCalendarService(options: ExampleOptions): Promise<Service> {
  const service = defineExample(
    {
      id: CALENDAR_ID,
      name: 'Example Calendar',
      summary: 'Your calendar. Find meetings and move them.',
    },
    options,
  );
  const now = options.clock ?? (() => Math.floor(Date.now() / 1000));
  await service.store.withData((data) => seedCalendar(data, now()));

  service.ask('calendar.find', {
    summary: 'Search events',
    params: { 'query?': 'string', 'day?': 'date' },
    async run(params, ctx) {
      const query = typeof params.query === 'string' ? params.query.toLowerCase() : undefined;
      const day = typeof params.day === 'string' ? params.day : undefined;
      const events = (await listEvents(ctx.data)).filter(
        (e) =>
          (query === undefined || e.title.toLowerCase().includes(query)) &&
          (day === undefined || e.start.startsWith(day)),
      );
      return {
        events: events.map((e) => ({
          id: e.id,
          title: e.title,
          start: e.start,
          minutes: e.minutes,
          with: e.attendees.map((a) => a.name).join(' & '),
        })),
      };
    },
  });

  service.intent('calendar.reschedule', {
    summary: 'Move a meeting',
    params: { event: 'string — id or title', to: 'datetime' },
    risk: 'low',
    transactional: true,
    // §5.1: COMMIT holds the meeting's start to the `from` its proposal declared, and UNDO to
    // the `from` its reversal declares (the start the move set).
    current: 'data',
    async plan(params, ctx) {
      const events = await listEvents(ctx.data);
      const event = resolveEvent(events, params);
      if (!('id' in event)) return event;
      return [moveProposal(events, event, params, ctx)];
    },
    async apply(action, ctx) {
      const move = action as MoveAction;
      // The meeting still starts at move.from (`current: 'data'`), so it exists.
      const event = (await ctx.data.get(eventKey(move.event))) as CalendarEvent;
      const taken = clash(await listEvents(ctx.data), seconds(move.to), event.minutes, event.id);
      if (taken !== undefined)
        throw new ParleyError('conflict', 'that slot was taken meanwhile; re-run the INTENT');
      ctx.progress('moving the meeting', 0.5);
      await ctx.data.put(eventKey(event.id), { ...event, start: move.to } as unknown as JsonValue);
      await notify(ctx.data, event, `moved to ${move.to}`);
      ctx.progress('attendees notified', 1);
      return { event: event.id, start: move.to };
    },
    async revert(action, ctx) {
      const move = action as MoveAction;
      // Meetings are never deleted here. If this one moved again since, the reversal below
      // declares a `from` it no longer has, and the undo is rolled back as a conflict (`current`).
      const event = (await ctx.data.get(eventKey(move.event))) as CalendarEvent;
      await ctx.data.put(eventKey(event.id), {
        ...event,
        start: move.from,
      } as unknown as JsonValue);
      await notify(ctx.data, event, `moved back to ${move.from}`);
      return {
        effects: [
          {
            op: 'update',
            target: `event/${event.id}`,
            field: 'start',
            from: move.to,
            to: move.from,
          },
          ...event.attendees.map((a) => ({
            op: 'send' as const,
            target: a.email,
            detail: 'update notification',
          })),
        ],
        result: { event: event.id, start: move.from },
      };
    },
  });
  return service;
}

/** The event named by id or title; CLARIFY when a title names several (§4.3). */
function resolveEvent(events: CalendarEvent[], params: JsonObject) {
  const name = String(params.event);
  const byId = events.find((e) => e.id === name);
  if (byId !== undefined) return byId;
  const matches = events.filter((e) => e.title.toLowerCase() === name.toLowerCase());
  if (matches.length === 1) return matches[0] as CalendarEvent;
  if (matches.length > 1) {
    const people = matches.map((e) => e.attendees[0]?.name ?? e.id);
    const first = people[0]?.split(' ')[0] ?? 'one';
    const sameName = people.every((p) => p.split(' ')[0] === first);
    return clarify(
      sameName ? `Which ${first}?` : `Which "${matches[0]?.title}"?`,
      matches.map((e) => {
        const who = e.attendees[0];
        const label =
          who === undefined
            ? `${e.title} (${when(seconds(e.start))})`
            : `${who.name}${who.team === undefined ? '' : ` (${who.team})`}, ${when(seconds(e.start))}`;
        return { label, params: { event: e.id } };
      }),
    );
  }
  const guess = didYouMean(name, [...new Set(events.map((e) => e.title))]);
  throw new ParleyError('invalid_params', `no meeting has the id or title ${quoteInput(name)}`, {
    fix:
      guess === undefined
        ? [{ say: 'ASK calendar.find to list meetings' }]
        : [{ say: `use "${guess}"`, params: { event: guess } }],
  });
}

function moveProposal(
  events: CalendarEvent[],
  event: CalendarEvent,
  params: JsonObject,
  ctx: PlanContext,
) {
  const target = dateTimeSeconds(String(params.to));
  if (target <= ctx.now) {
    const tomorrowSameTime = target + Math.ceil((ctx.now - target + 1) / 86_400) * 86_400;
    throw new ParleyError(
      'invalid_params',
      `\`to\` must be in the future (got ${String(params.to)})`,
      {
        fix: [
          {
            say: 'use the same time on the next day that is still ahead',
            params: { to: isoUtc(tomorrowSameTime) },
          },
        ],
      },
    );
  }
  const taken = clash(events, target, event.minutes, event.id);
  if (taken !== undefined) {
    const free = freeSlots(events, target, event.minutes, event.id, 3);
    throw new ParleyError('conflict', `that slot overlaps "${taken.title}"`, {
      fix: free.map((s) => ({ say: `use ${when(s)} (${isoUtc(s)})`, params: { to: isoUtc(s) } })),
    });
  }
  const to = isoUtc(target);
  const action: MoveAction = { event: event.id, from: event.start, to };
  return {
    summary: `Move "${event.title}" to ${when(target)}`,
    effects: [
      { op: 'update' as const, target: `event/${event.id}`, field: 'start', from: event.start, to },
      ...event.attendees.map((a) => ({
        op: 'send' as const,
        target: a.email,
        detail: 'update notification',
      })),
    ],
    risk: 'low' as const,
    undoWindow: RESCHEDULE_UNDO_WINDOW,
    action,
  };
}

/** Notifications are kept in an outbox in the store, written in the commit's transaction. */
async function notify(data: DataAccess, event: CalendarEvent, what: string): Promise<void> {
  const outbox = await data.list('outbox/');
  await data.put(`outbox/${String(outbox.length + 1).padStart(6, '0')}`, {
    to: event.attendees.map((a) => a.email),
    subject: `"${event.title}" ${what}`,
  });
}
