import { HardConstraint, PreferenceSheet, type PyObject, type PyValue } from '@parley/consensus';

/**
 * The story of parley-consensus's `examples/meeting.py`, with its calendars written as code:
 * three people, six possible slots, each person's red line and liking kept in their own
 * delegate. Then Dan, who can only meet on a Friday, which Bob can never do.
 */
export const MEETING_SLOTS: readonly PyObject[] = [
  { day: 'mon', hour: 9 },
  { day: 'mon', hour: 15 },
  { day: 'tue', hour: 11 },
  { day: 'tue', hour: 17 },
  { day: 'fri', hour: 15 },
  { day: 'wed', hour: 14 },
];

/** "Tue 14:00". */
export function slotLabel(option: PyValue): string {
  const o = option as PyObject;
  const day = String(o.day);
  return `${day.charAt(0).toUpperCase()}${day.slice(1)} ${String(o.hour).padStart(2, '0')}:00`;
}

const hour = (o: PyObject): number => (typeof o.hour === 'number' ? o.hour : Number.NaN);

/** Each calendar, private to its owner's delegate. */
export function meetingCalendars(): PreferenceSheet<PyObject>[] {
  return [
    new PreferenceSheet<PyObject>('Ana', {
      // the school run
      hard: [new HardConstraint('no-mornings', (o) => hour(o) >= 11)],
      utility: (o) => (o.day === 'tue' ? 1.0 : 0.5),
    }),
    new PreferenceSheet<PyObject>('Bob', {
      // travels on Fridays
      hard: [new HardConstraint('no-fridays', (o) => o.day !== 'fri')],
      utility: (o) => (o.hour === 15 ? 1.0 : 0.5),
    }),
    new PreferenceSheet<PyObject>('Cara', {
      // picks the kids up at 16:30
      hard: [new HardConstraint('kids-pickup', (o) => hour(o) <= 16)],
      utility: (o) => (o.day === 'mon' ? 1.0 : 0.5),
    }),
  ];
}

/** Dan, who joins in the second act. */
export function dansCalendar(): PreferenceSheet<PyObject> {
  return new PreferenceSheet<PyObject>('Dan', {
    hard: [new HardConstraint('fridays-only', (o) => o.day === 'fri')],
    utility: () => 1.0,
  });
}
