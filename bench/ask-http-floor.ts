/**
 * Issue 27, ASK over the HTTP bridge: what `parley serve calendar --http` does per request that
 * bench/raw-http-answer.ts does not, each part timed alone in this process (CPU µs per request,
 * median of rounds), so the distance to the raw server has a floor in figures. The raw server's
 * own work beyond node:http is one JSON.parse of the frame and one string concatenation; the
 * service's is the §2.4 Host check, the UTF-8 check of the body, the whole ASK (parse and check
 * of the frame, dispatch, the calendar's read, the reply's JSON and envelope), the read's
 * freshness across processes (the -shm stamp, once per event-loop turn), and the request log.
 * Each ASK runs in a turn of its own, as requests on separate connections do.
 *
 *   npm run build && node --import tsx bench/ask-http-floor.ts
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { createCalendarService } from '@parley/examples/calendar';
import { MemoryStore, SqliteStore } from '@parley/service';
import { BrowserPolicy } from '@parley/transport';
import { observedHandler } from '../packages/cli/src/ops/observed-handler.js';
import { serviceLog } from '../packages/cli/src/ops/request-log.js';

const COUNT = Number(process.env.BENCH_COUNT ?? 20_000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 7);
const frame = (id: string): string =>
  JSON.stringify({
    parley: 1,
    id,
    verb: 'ASK',
    capability: 'calendar.find',
    params: { query: 'with' },
  });

const root = mkdtempSync(join(tmpdir(), 'parley-ask-floor-'));
const sqlite = new SqliteStore({ folder: join(root, 'c') });
const onSqlite = await createCalendarService({ trust: [], store: sqlite });
const inMemory = await createCalendarService({ trust: [], store: new MemoryStore() });
const reply = JSON.stringify(await onSqlite.handleText(frame('capture'), {}));
const at = reply.indexOf('"re":"capture"');
const [before, after] = [reply.slice(0, at + 5), `${reply.slice(at + 14)}\n`];
const policy = new BrowserPolicy({}, '127.0.0.1');
const decoder = new TextDecoder('utf-8', { fatal: true });
const body = Buffer.from(frame('a1'));
const log = serviceLog('text', () => undefined).observer();
const logged = observedHandler(inMemory, (record) => log.request('calendar', record));
const observedOnly = observedHandler(inMemory, () => undefined);
const turn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/** CPU µs per call of `part`, each call in a turn of its own, less an empty turn's. */
type Part = (i: number) => unknown;
const parts: [string, Part][] = [
  ['an empty event-loop turn (subtracted from every row)', () => undefined],
  [
    'raw: JSON.parse of the frame and the reply string',
    (i) => {
      const id = (JSON.parse(frame(`a${i}`)) as { id: string }).id;
      return before + JSON.stringify(id) + after;
    },
  ],
  [
    '§2.4 Host check and UTF-8 check of the body',
    () => {
      policy.check({
        method: 'POST',
        protocol: 'http:',
        header: (n) => (n === 'host' ? '127.0.0.1:7449' : null),
      });
      return decoder.decode(body);
    },
  ],
  ['ASK on a MemoryStore (no cross-process read)', (i) => inMemory.handleText(frame(`a${i}`), {})],
  [
    'ASK on SQLite (the -shm stamp read once per turn)',
    (i) => onSqlite.handleText(frame(`a${i}`), {}),
  ],
  [
    'ASK on a MemoryStore, observed (the record, no log line)',
    (i) => observedOnly.handleText(frame(`a${i}`), {}),
  ],
  [
    'ASK on a MemoryStore, logged (observed, one text line)',
    (i) => logged.handleText(frame(`a${i}`), {}),
  ],
];

async function cpuPerCall(part: Part): Promise<number> {
  const start = process.cpuUsage();
  for (let i = 0; i < COUNT; i++) {
    await turn();
    await part(i);
  }
  const used = process.cpuUsage(start);
  return (used.user + used.system) / COUNT;
}

const rounds = new Map<string, number[]>(parts.map(([name]) => [name, []]));
for (let r = 0; r < ROUNDS + 1; r++) {
  for (const [name, part] of parts) {
    const us = await cpuPerCall(part);
    if (r > 0) rounds.get(name)?.push(us); // round 0 warms up
  }
}
const median = (xs: number[]): number =>
  [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;
const empty = median(rounds.get(parts[0]?.[0] ?? '') ?? []);
console.log(
  `${process.version}, ${cpus().length} CPUs, load ${loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')}, median of ${ROUNDS} rounds × ${COUNT}\n`,
);
console.log('| part | CPU µs per request |\n|---|---:|');
for (const [name] of parts.slice(1)) {
  console.log(`| ${name} | ${(median(rounds.get(name) ?? []) - empty).toFixed(1)} |`);
}
console.log(`| (an empty turn) | ${empty.toFixed(1)} |`);
await sqlite.close();
rmSync(root, { recursive: true, force: true });
