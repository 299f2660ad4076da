import type { DataAccess } from '@parley/service';
import { type CalendarEvent, eventKey } from './events.js';

const SEEDED_KEY = 'meta/seeded';
const DAY = 86_400;

/** Midnight UTC of the day after `now`. */
function tomorrow(now: number): number {
  return Math.floor(now / DAY) * DAY + DAY;
}

const iso = (seconds: number): string =>
  new Date(seconds * 1000).toISOString().replace('.000Z', 'Z');

/**
 * Seeds a week of meetings relative to the first start, once. Two are titled "1:1 with Ana",
 * with different Anas, so rescheduling by title needs a CLARIFY.
 */
export async function seedCalendar(data: DataAccess, now: number): Promise<void> {
  if ((await data.get(SEEDED_KEY)) !== undefined) return;
  const day0 = tomorrow(now);
  const at = (day: number, hour: number, minute = 0): number =>
    day0 + day * DAY + hour * 3600 + minute * 60;
  const events: CalendarEvent[] = [
    {
      id: 'e1',
      title: 'Standup',
      start: iso(at(0, 9)),
      minutes: 15,
      attendees: [{ name: 'Team', email: 'team@example.com' }],
    },
    {
      id: 'e42',
      title: '1:1 with Ana',
      start: iso(at(0, 14)),
      minutes: 30,
      attendees: [{ name: 'Ana Ruiz', email: 'ana.ruiz@example.com', team: 'design' }],
    },
    {
      id: 'e77',
      title: '1:1 with Ana',
      start: iso(at(1, 10)),
      minutes: 30,
      attendees: [{ name: 'Ana Li', email: 'ana.li@example.com', team: 'sales' }],
    },
    {
      id: 'e5',
      title: 'Design review',
      start: iso(at(1, 15)),
      minutes: 60,
      attendees: [{ name: 'Design', email: 'design@example.com' }],
    },
    {
      id: 'e9',
      title: 'Quarterly planning',
      start: iso(at(2, 13)),
      minutes: 120,
      attendees: [{ name: 'Leads', email: 'leads@example.com' }],
    },
    {
      id: 'e12',
      title: 'Lunch with Bo',
      start: iso(at(3, 12)),
      minutes: 60,
      attendees: [{ name: 'Bo Chen', email: 'bo@example.com' }],
    },
  ];
  for (const event of events) await data.put(eventKey(event.id), event);
  await data.put(SEEDED_KEY, true);
}
