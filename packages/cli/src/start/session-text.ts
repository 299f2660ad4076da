import { isAbsolute, relative } from 'node:path';
import { commandLine, shellQuote } from '../shell-quote.js';

/** The endpoints of the two services `parley start` runs. */
export type StartedUrls = {
  calendar: string;
  calendarHttp: string;
  shop: string;
  shopHttp: string;
};

/**
 * Sets WHEN to tomorrow at 16:00 UTC (free on every seeded day of the example calendar) when it
 * runs, so the session works on whatever day it is pasted, not only on the day it was printed.
 */
export const WHEN_LINE =
  'export WHEN=$(node -p "new Date(Date.now() + 864e5).toISOString().slice(0, 11) + \'16:00:00Z\'")';

/**
 * The copy-pasteable session `npm start` prints: hello, ask, intent with a clarify, commit, an
 * order over the grant's per-order limit that needs consent, approve, commit, undo.
 */
export function sessionText(urls: StartedUrls, home: string, self: readonly string[]): string {
  const run = (...args: string[]): string => commandLine([...self, ...args]);
  // "to=$WHEN" in double quotes: the shell puts the time in, whatever day it is.
  const move = run('intent', urls.calendar, 'calendar.reschedule', 'event=1:1 with Ana');
  return [
    'Try it in another terminal, from this folder (Lens on stdout; add --json for raw frames):',
    '',
    `export PARLEY_HOME=${homeForShell(home)}`,
    `${WHEN_LINE}   # tomorrow, 16:00 UTC`,
    run('whoami'),
    run('hello', urls.calendar),
    run('ask', urls.calendar, 'calendar.find', 'query=ana'),
    `${move} "to=$WHEN"   # asks "Which Ana?" (exit 4)`,
    `${move} "to=$WHEN" --pick 1`,
    `${run('commit', urls.calendar, 'PROPOSAL_ID')}   # the id printed above`,
    `${run('undo', urls.calendar, 'RECEIPT_ID')}`,
    '',
    `${run('intent', urls.shop, 'shop.order', 'items:=[{"sku":"aud-5a","qty":1}]', 'delivery=express')}`,
    `${run('commit', urls.shop, 'PROPOSAL_ID')}   # over 30.00 USD: consent required (exit 3)`,
    `${run('approve', 'PROPOSAL_ID')}   # the principal, at this terminal`,
    `${run('commit', urls.shop, 'PROPOSAL_ID')}`,
    `${run('undo', urls.shop, 'RECEIPT_ID')}`,
    '',
    `The same services over the HTTP bridge: ${urls.calendarHttp} and ${urls.shopHttp}`,
    '',
    `From an MCP host: ${run('setup', 'claude-desktop', '--services', urls.calendar, urls.shop)}   # or claude-code, cursor, vscode, codex, windsurf, gemini; then ${run('doctor')}`,
    '',
  ].join('\n');
}

/** PARLEY_HOME as a shell word: `"$PWD/…"` inside the working folder, so it pastes anywhere. */
function homeForShell(home: string): string {
  const inside = relative(process.cwd(), home);
  if (
    inside !== '' &&
    !inside.startsWith('..') &&
    !isAbsolute(inside) &&
    /^[\w./-]+$/.test(inside)
  ) {
    return `"$PWD/${inside}"`;
  }
  return shellQuote(home);
}
