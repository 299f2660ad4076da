import type { PyObject } from '@parley/consensus';

/**
 * The calendars `parley consensus env` runs when no --spec is given: the five owners and eight
 * slots of parley-consensus's `parley/net/profiles.py`, with each red line as the reference has
 * it and each liking written as declarative terms (a preferred day or hour, and earlier or later
 * in the day). A recipe like any other: `{title, options, parties}`.
 */
export const ENV_CALENDARS: PyObject = {
  title: 'Pick a meeting slot',
  options: [
    { day: 'mon', hour: 9 },
    { day: 'mon', hour: 15 },
    { day: 'tue', hour: 11 },
    { day: 'tue', hour: 14 },
    { day: 'wed', hour: 14 },
    { day: 'thu', hour: 15 },
    { day: 'fri', hour: 15 },
    { day: 'tue', hour: 17 },
  ],
  parties: [
    {
      owner: 'Ana',
      hard: [{ attr: 'hour', op: '>=', value: 11 }],
      utility: [
        { attr: 'day', prefer: 'tue', weight: 2 },
        { attr: 'hour', direction: 'higher', lo: 9, hi: 17, weight: 1 },
      ],
    },
    {
      owner: 'Bob',
      hard: [{ attr: 'day', op: '!=', value: 'fri' }],
      utility: [
        { attr: 'hour', prefer: 15, weight: 3 },
        { attr: 'hour', direction: 'lower', lo: 9, hi: 17, weight: 1 },
      ],
    },
    {
      owner: 'Cara',
      hard: [{ attr: 'hour', op: '<=', value: 16 }],
      utility: [
        { attr: 'day', prefer: 'wed', weight: 3 },
        { attr: 'hour', direction: 'lower', lo: 9, hi: 17, weight: 1 },
      ],
    },
    {
      owner: 'Dan',
      hard: [{ attr: 'day', op: '!=', value: 'mon' }],
      utility: [
        { attr: 'hour', prefer: 14, weight: 1 },
        { attr: 'hour', direction: 'higher', lo: 9, hi: 17, weight: 1 },
      ],
    },
    {
      owner: 'Eve',
      hard: [{ attr: 'hour', op: '>=', value: 13 }],
      utility: [
        { attr: 'day', prefer: 'thu', weight: 3 },
        { attr: 'hour', direction: 'higher', lo: 9, hi: 17, weight: 2 },
      ],
    },
  ],
};
