import type { DataAccess } from '@parley/service';

export type Attendee = { name: string; email: string; team?: string };

/** A meeting as the calendar keeps it in the store. */
export type CalendarEvent = {
  id: string;
  title: string;
  /** UTC, RFC 3339 with seconds. */
  start: string;
  minutes: number;
  attendees: Attendee[];
};

export const eventKey = (id: string): string => `event/${id}`;

export async function listEvents(data: DataAccess): Promise<CalendarEvent[]> {
  const rows = await data.list('event/');
  return rows
    .map(([, value]) => value as unknown as CalendarEvent)
    .sort((a, b) => (a.start < b.start ? -1 : a.start > b.start ? 1 : 0));
}

export const seconds = (iso: string): number => Math.floor(Date.parse(iso) / 1000);
export const isoUtc = (s: number): string => new Date(s * 1000).toISOString().replace('.000Z', 'Z');

/** Whether `[start, start+minutes)` overlaps any other event. */
export function clash(
  events: CalendarEvent[],
  start: number,
  minutes: number,
  ignore: string,
): CalendarEvent | undefined {
  const end = start + minutes * 60;
  return events.find((e) => {
    if (e.id === ignore) return false;
    const s = seconds(e.start);
    return s < end && start < s + e.minutes * 60;
  });
}

/** The next `count` free starts at or after `from`, on half-hour steps, within working hours. */
export function freeSlots(
  events: CalendarEvent[],
  from: number,
  minutes: number,
  ignore: string,
  count: number,
): number[] {
  const step = 1800;
  const out: number[] = [];
  let t = Math.ceil(from / step) * step;
  for (let i = 0; out.length < count && i < 2 * 24 * 14; i++, t += step) {
    const hour = new Date(t * 1000).getUTCHours();
    if (hour < 8 || hour + minutes / 60 > 18) continue;
    if (clash(events, t, minutes, ignore) === undefined) out.push(t);
  }
  return out;
}
