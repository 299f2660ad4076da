/**
 * The required work of bench/ask-http.bench.ts (issue 27): a raw node:http server, in its own
 * process, doing the least a Parley service must to answer `ASK calendar.find` over the §2.4
 * bridge from a store other processes may write, in plain node:http, JSON and better-sqlite3,
 * nothing of the package's code. It reads the calendar rows of the service's own SQLite file.
 *
 * - §2.1: the body counted as it arrives and refused past 1 MiB (413), checked as UTF-8, parsed
 *   as one JSON object with `parley` 1, an `id` string and a known verb.
 * - §3, §4.2: `budget` absent or a whole number; no `grants` (with grants it would verify them);
 *   the capability is `calendar.find`; its params (§4.1.1 `query?: string`, `day?: date`) checked.
 * - The read, fresh across processes: one `pread` of the WAL-index header (the first 48 bytes of
 *   the `-shm` file, https://www.sqlite.org/walformat.html) per request, the cheapest way for one
 *   process to learn that no connection of any process committed since it last read; the parsed
 *   and sorted rows are kept while those bytes are unchanged.
 * - The filter, the ANSWER frame's JSON, and §8's budget: an ANSWER whose JSON is at most half
 *   the budget fits without measuring its Lens (the bound of the package's answer-bound.ts, which
 *   the bench's reply is within; a longer one would need the Lens measured, which this leaves out).
 *
 * Left out, so that it is a floor: the Host check the package's bridge makes against DNS
 * rebinding, the request log, HELLO and every other verb.
 *
 *   node --import tsx bench/raw-http-ask-required.ts DATABASE_FILE     (prints "listening PORT")
 */
import { openSync, readSync } from 'node:fs';
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import Database from 'better-sqlite3';

const MAX_FRAME_BYTES = 1024 * 1024;
const DEFAULT_BUDGET = 2000;
const HEADER_BYTES = 48;
const VERBS = new Set(['HELLO', 'ASK', 'INTENT', 'COMMIT', 'UNDO', 'EXPAND']);
const DATE = /^\d{4}-\d{2}-\d{2}$/;

type Stored = { id: string; title: string; start: string; minutes: number };
type Event = Stored & { attendees: { name: string }[] };

const file = process.argv[2] ?? '';
const database = new Database(file, { readonly: true });
const rows = database.prepare("SELECT value FROM data WHERE key >= 'event/' AND key < 'event0'");
const shm = openSync(`${file}-shm`, 'r');
const seen = Buffer.alloc(HEADER_BYTES);
const header = Buffer.alloc(HEADER_BYTES);
let events: Event[] | undefined;

/** The calendar's events by start, read again only when a commit came between. */
function currentEvents(): Event[] {
  const got = readSync(shm, header, 0, HEADER_BYTES, 0);
  if (got < HEADER_BYTES || !header.equals(seen)) {
    header.copy(seen);
    events = undefined;
  }
  events ??= (rows.all() as { value: string }[])
    .map((row) => JSON.parse(row.value) as Event)
    .sort((a, b) => (a.start < b.start ? -1 : a.start > b.start ? 1 : 0));
  return events;
}

const decoder = new TextDecoder('utf-8', { fatal: true });
let replies = 0;
const prefix = `r${process.pid}.`;

function send(response: ServerResponse, status: number, body: string): void {
  response.writeHead(status, {
    'content-type': status === 200 ? 'application/x-ndjson' : 'text/plain',
    'content-length': Buffer.byteLength(body),
  });
  response.end(body);
}

const refuse = (why: string): never => {
  throw new Error(why);
};

/** The ANSWER to one frame's text; throws why this floor does not answer it. */
function answer(text: string): string {
  const frame = JSON.parse(text);
  if (typeof frame !== 'object' || frame === null || Array.isArray(frame)) refuse('not an object');
  if (frame.parley !== 1 || typeof frame.id !== 'string') refuse('not a Parley frame');
  if (!VERBS.has(frame.verb)) refuse('unknown verb');
  if (frame.verb !== 'ASK' || frame.capability !== 'calendar.find') refuse('not calendar.find');
  const budget = frame.budget ?? DEFAULT_BUDGET;
  if (!Number.isInteger(budget) || budget < 0) refuse('bad budget');
  if (frame.grants !== undefined || frame.proof !== undefined)
    refuse('grants are not checked here');
  const params = frame.params ?? {};
  if (typeof params !== 'object' || params === null || Array.isArray(params)) refuse('bad params');
  const { query, day } = params;
  if (query !== undefined && typeof query !== 'string') refuse('bad query');
  if (day !== undefined && (typeof day !== 'string' || !DATE.test(day))) refuse('bad day');
  const needle = query?.toLowerCase();
  const found = currentEvents().filter(
    (e) =>
      (needle === undefined || e.title.toLowerCase().includes(needle)) &&
      (day === undefined || e.start.startsWith(day)),
  );
  const data = {
    events: found.map((e) => ({
      id: e.id,
      title: e.title,
      start: e.start,
      minutes: e.minutes,
      with: e.attendees.map((a) => a.name).join(' & '),
    })),
  };
  const reply = JSON.stringify({
    parley: 1,
    id: prefix + replies++,
    re: frame.id,
    kind: 'ANSWER',
    data,
  });
  if (2 * reply.length > budget) refuse('over the bound: the Lens would need measuring');
  return `${reply}\n`;
}

const server = createServer((request, response) => {
  const chunks: Buffer[] = [];
  let size = 0;
  request.on('data', (chunk: Buffer) => {
    size += chunk.length;
    if (size > MAX_FRAME_BYTES) {
      send(response, 413, 'frame over 1 MiB');
      request.destroy();
    } else chunks.push(chunk);
  });
  request.on('end', () => {
    try {
      send(response, 200, answer(decoder.decode(Buffer.concat(chunks, size))));
    } catch (error) {
      send(response, 400, (error as Error).message);
    }
  });
});
server.keepAliveTimeout = 120_000;
server.listen(0, '127.0.0.1', () => {
  process.stdout.write(`listening ${(server.address() as AddressInfo).port}\n`);
});
// A normal exit on SIGTERM, so that --cpu-prof (ASK_HTTP_REQUIRED_FLAGS) writes its profile.
process.once('SIGTERM', () => process.exit(0));
