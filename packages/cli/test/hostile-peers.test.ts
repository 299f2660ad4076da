import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHILD_TEST_TIMEOUT_MS, killAll } from './fixtures/cli-process.js';
import {
  type HostileFrame,
  largeHostileFrame,
  oversizedFrame,
  smallHostileFrame,
} from './fixtures/hostile-frames.js';
import { type ReplyLine, ReplyReader } from './fixtures/reply-reader.js';
import { SeededRandom } from './fixtures/seeded-random.js';
import { type ServedExample, serveExample } from './fixtures/served-example.js';
import { tempFolder } from './fixtures/temp-home.js';

/**
 * End-to-end fuzz (issue 10): `parley serve shop` in its own process, hostile frames over real
 * TCP and HTTP. Properties: every frame gets exactly one final reply with the right `re` (§2.2),
 * client input never yields `internal` (§7), another connection keeps being answered meanwhile,
 * and the process stays up. PARLEY_FUZZ_SEED replays a run; the seed is in every failure.
 */
const SEED = Number(process.env.PARLEY_FUZZ_SEED ?? Math.floor(Math.random() * 2 ** 31));
const CONNECTIONS = 3;
const SMALL_PER_CONNECTION = 150;
const LARGE_PER_CONNECTION = 2;
const HTTP_POSTS = 40;

const folder = tempFolder();
let shop: ServedExample;
let tcp: string;
let http: string;

beforeAll(async () => {
  shop = await serveExample(
    'shop',
    ['--tcp', '127.0.0.1:0', '--http', '127.0.0.1:0', '--data', join(folder.path, 'shop')],
    { PARLEY_HOME: folder.home },
    2,
  );
  [tcp, http] = shop.addresses as [string, string];
}, CHILD_TEST_TIMEOUT_MS);
afterAll(async () => {
  await shop?.stop();
  killAll();
  folder.remove();
});

/** Runs `check`, naming the seed in any failure so the run can be replayed. */
async function withSeed(check: () => Promise<void>): Promise<void> {
  try {
    await check();
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new Error(`${reason}\n(replay with PARLEY_FUZZ_SEED=${SEED})`, { cause: error });
  }
}

/** The frames of one connection, in the order they are written. */
function framesFor(random: SeededRandom, connection: number): HostileFrame[] {
  const frames: HostileFrame[] = [];
  for (let i = 0; i < SMALL_PER_CONNECTION; i++) {
    frames.push(smallHostileFrame(random, connection * 1000 + i));
  }
  for (let i = 0; i < LARGE_PER_CONNECTION; i++) {
    frames.splice(random.below(frames.length), 0, largeHostileFrame(random, connection * 10 + i));
  }
  frames.splice(random.below(frames.length), 0, oversizedFrame(random));
  // A duplicate: the same frame (and id) again, answered again (§2.2: one reply per request).
  const again = frames[random.below(frames.length)] as HostileFrame;
  frames.push(again);
  return frames;
}

/**
 * Writes frames pipelined (several in one write) or torn (one frame in pieces, with a pause
 * between), as random decides.
 */
async function writeAll(reader: ReplyReader, random: SeededRandom, frames: HostileFrame[]) {
  let i = 0;
  while (i < frames.length) {
    if (random.chance(0.3)) {
      const frame = frames[i++] as HostileFrame;
      const line = Buffer.concat([frame.bytes, Buffer.from('\n')]);
      const cuts = [
        ...new Set([0, ...Array.from({ length: 3 }, () => random.below(line.length)), line.length]),
      ].sort((a, b) => a - b);
      for (let c = 0; c + 1 < cuts.length; c++) {
        reader.write(line.subarray(cuts[c], cuts[c + 1]));
        await new Promise((resolve) => setTimeout(resolve, random.below(3)));
      }
    } else {
      const batch = frames.slice(i, i + 1 + random.below(40));
      i += batch.length;
      reader.write(Buffer.concat(batch.flatMap((frame) => [frame.bytes, Buffer.from('\n')])));
    }
  }
}

/** How often each `re` is expected, or was received. */
function countRe(items: readonly { re?: unknown }[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const item of items) {
    const re = typeof item.re === 'string' ? item.re : '<no re>';
    counts.set(re, (counts.get(re) ?? 0) + 1);
  }
  return counts;
}

function expectNoInternal(replies: readonly ReplyLine[], what: string): void {
  const internal = replies.filter((r) => r.code === 'internal');
  expect(internal, `${what}: internal errors ${JSON.stringify(internal.slice(0, 3))}`).toEqual([]);
}

/** A canary peer: sequential HELLOs on its own connection until `done` settles. */
async function canary(done: Promise<unknown>): Promise<number> {
  const reader = await ReplyReader.open(tcp);
  let finished = false;
  void done.finally(() => {
    finished = true;
  });
  let answered = 0;
  while (!finished) {
    reader.write(`{"parley":1,"id":"canary${answered}","verb":"HELLO","budget":50}\n`);
    await reader.until(answered + 1);
    expect(reader.finals[answered]).toMatchObject({ kind: 'BRIEF', re: `canary${answered}` });
    answered++;
  }
  reader.close();
  return answered;
}

describe('issue 10: hostile peers against parley serve', () => {
  it(
    'every frame gets exactly one final reply, never internal; others are answered; the process stays up',
    () =>
      withSeed(async () => {
        const random = new SeededRandom(SEED);
        const plans = Array.from({ length: CONNECTIONS }, (_, c) => framesFor(random, c));
        const httpFrames = Array.from({ length: HTTP_POSTS }, (_, i) =>
          i % 10 === 0 ? largeHostileFrame(random, 900 + i) : smallHostileFrame(random, 9000 + i),
        );
        const readers = await Promise.all(plans.map(() => ReplyReader.open(tcp)));
        const tcpRuns = plans.map(async (frames, c) => {
          const reader = readers[c] as ReplyReader;
          await writeAll(reader, new SeededRandom(SEED + c + 1), frames);
          await reader.until(frames.length);
        });
        const httpRun = (async () => {
          const replies: ReplyLine[][] = [];
          for (const frame of httpFrames) replies.push(await post(frame));
          return replies;
        })();
        const all = Promise.all([...tcpRuns, httpRun]);
        const [answered] = await Promise.all([canary(all), all]);
        const httpReplies = await httpRun;

        for (const [c, frames] of plans.entries()) {
          const reader = readers[c] as ReplyReader;
          // Give a stray extra reply a moment to show up before counting.
          await new Promise((resolve) => setTimeout(resolve, 50));
          expect(countRe(reader.finals), `connection ${c}: final replies by re`).toEqual(
            countRe(frames),
          );
          expectNoInternal(reader.finals, `connection ${c}`);
          reader.close();
        }
        for (const [i, lines] of httpReplies.entries()) {
          const frame = httpFrames[i] as HostileFrame;
          const finals = lines.filter((l) => l.kind !== 'EVENT');
          expect(finals, `HTTP ${frame.kind}`).toHaveLength(1);
          expect(finals[0]?.re, `HTTP ${frame.kind}`).toBe(frame.re);
          expectNoInternal(finals, `HTTP ${frame.kind}`);
        }
        expect(answered, 'the canary connection was answered while the fuzz ran').toBeGreaterThan(
          2,
        );
        // Still up: a new connection is answered, and the process has not exited.
        const after = await ReplyReader.open(tcp);
        after.write('{"parley":1,"id":"after","verb":"HELLO"}\n');
        await after.until(1);
        expect(after.finals[0]).toMatchObject({ kind: 'BRIEF', re: 'after' });
        after.close();
        expect(shop.child.exitCode).toBeNull();
      }),
    CHILD_TEST_TIMEOUT_MS,
  );
});

/**
 * One frame POSTed to the HTTP bridge as §2.4 says (application/json, our own Host); the reply
 * lines.
 */
async function post(frame: HostileFrame): Promise<ReplyLine[]> {
  const url = new URL(http);
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', host: url.host },
    body: new Uint8Array(frame.bytes),
  });
  expect(response.status, `HTTP ${frame.kind}`).toBe(200);
  const body = await response.text();
  return body
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as ReplyLine);
}
