import type { ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { MAX_FRAME_BYTES } from '@parley/protocol';
import { afterAll, describe, expect, it } from 'vitest';
import {
  CHILD_TEST_TIMEOUT_MS,
  collect,
  killAll,
  NODE_ARGS,
  runCli,
  spawnTracked,
  waitForOutput,
} from './fixtures/cli-process.js';
import { LineSocket } from './fixtures/line-socket.js';
import { parseExposition, type Sample, sampleValue } from './fixtures/prometheus-text.js';
import { tempFolder } from './fixtures/temp-home.js';

const folder = tempFolder();
const env = { PARLEY_HOME: folder.home };
afterAll(() => {
  killAll();
  folder.remove();
});

async function scrape(url: string): Promise<Sample[]> {
  const response = await fetch(url);
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
  return parseExposition(await response.text());
}

describe('parley serve --metrics: Prometheus text, scraped during a run (issue 26)', {
  timeout: CHILD_TEST_TIMEOUT_MS,
}, () => {
  it('counts requests by verb and outcome, times COMMIT and ASK, sums spend, refusals and connections', async () => {
    await runCli(['keys', 'init'], env);
    await runCli(['grant', '--svc', 'shop.example', '--can', 'shop.*', '--per', '30.00:USD'], env);
    const args = ['serve', 'shop', '--data', join(folder.path, 'shop'), '--tcp', '127.0.0.1:0'];
    args.push('--metrics', '127.0.0.1:0');
    const child: ChildProcess = spawnTracked(process.execPath, [...NODE_ARGS, ...args], env);
    child.stdin?.end();
    const printed = await waitForOutput(child, /^metrics (\S+) \(shop\)$/m);
    const url = /^listening (\S+) /m.exec(printed)?.[1] as string;
    const metrics = /^metrics (\S+) /m.exec(printed)?.[1] as string;
    expect(metrics).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/metrics$/);

    const before = await scrape(metrics);
    expect(sampleValue(before, 'parley_commits_in_doubt', { service: 'shop' })).toBe(0);
    expect(sampleValue(before, 'parley_requests_total')).toBeUndefined();

    expect((await runCli(['ask', url, 'shop.search', 'query=cable'], env)).code).toBe(0);
    const intent = await runCli(
      ['intent', url, 'shop.order', 'items:=[{"sku":"cab-1a","qty":1}]'],
      env,
    );
    expect(intent.code).toBe(0);
    const proposal = /\[(p_[\w-]+)\]/.exec(intent.stdout)?.[1] as string;
    const commit = await runCli(['commit', url, proposal, '--json'], env);
    expect(commit.code).toBe(0);
    const cost = JSON.parse(commit.stdout).receipt.cost as { amount: number; currency: string };
    expect(cost.currency).toBe('USD');
    // §4.4: the same COMMIT again replays the receipt; nothing more is reserved.
    expect((await runCli(['commit', url, proposal, '--json'], env)).code).toBe(0);

    // A raw peer stays connected and sends a line over the §2.1 limit: refused by the transport.
    const peer = await LineSocket.open(url);
    peer.write(`${'x'.repeat(MAX_FRAME_BYTES + 10)}\n`);
    expect(await peer.next()).toMatchObject({ kind: 'ERROR', code: 'bad_frame' });

    const during = await scrape(metrics);
    const shop = { service: 'shop' };
    expect(sampleValue(during, 'parley_open_connections', shop)).toBe(1);
    expect(
      sampleValue(during, 'parley_requests_total', { ...shop, verb: 'ASK', outcome: 'answer' }),
    ).toBe(1);
    expect(
      sampleValue(during, 'parley_requests_total', {
        ...shop,
        verb: 'INTENT',
        outcome: 'proposals',
      }),
    ).toBe(1);
    expect(
      sampleValue(during, 'parley_requests_total', { ...shop, verb: 'COMMIT', outcome: 'receipt' }),
    ).toBe(2);
    expect(
      sampleValue(during, 'parley_commit_duration_seconds_count', { ...shop, outcome: 'receipt' }),
    ).toBe(2);
    expect(
      sampleValue(during, 'parley_commit_duration_seconds_bucket', {
        ...shop,
        outcome: 'receipt',
        le: '+Inf',
      }),
    ).toBe(2);
    expect(
      sampleValue(during, 'parley_ask_duration_seconds_count', { ...shop, outcome: 'answer' }),
    ).toBe(1);
    expect(sampleValue(during, 'parley_spend_reserved_total', { ...shop, currency: 'USD' })).toBe(
      cost.amount,
    );
    expect(
      sampleValue(during, 'parley_frames_refused_total', { ...shop, reason: 'bad_frame' }),
    ).toBe(1);
    expect(sampleValue(during, 'parley_commits_in_doubt', shop)).toBe(0);
    peer.close();
    await expect
      .poll(async () => sampleValue(await scrape(metrics), 'parley_open_connections', shop))
      .toBe(0);

    expect((await fetch(metrics.replace('/metrics', '/other'))).status).toBe(404);
    const done = collect(child, null);
    child.kill('SIGTERM');
    expect((await done).code).toBe(0);
  });
});
