// The MCP client SDK's resolve hook first (see memory.test.ts).
import '../../mcp/test/support/sdk-client.js';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { EventReply, Proposal, ProposalsReply } from '@parley/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  eventually,
  type GatewayUnderTest,
  refusal,
  startGateway,
} from './support/gateway-agent.js';
import { serverEntry } from './support/reference-servers.js';

const FIXTURE = fileURLToPath(new URL('./fixtures/everything-changing.mjs', import.meta.url));
const LONG = 'trigger-long-running-operation';
const TOGGLE = 'toggle-simulated-logging';
const folder = mkdtempSync(join(tmpdir(), 'gateway-everything-'));
const changeFile = join(folder, 'description.txt');
/** server-everything behind a gateway with the defaults. */
let main: GatewayUnderTest;
/** server-everything behind a gateway that makes its long-running tool an intent. */
let calls: GatewayUnderTest;

async function propose(under: GatewayUnderTest, capability: string, params = {}) {
  const reply = (await under.client.intent(capability, params)) as ProposalsReply;
  return reply.proposals[0] as Proposal;
}

beforeAll(async () => {
  main = await startGateway({
    command: process.execPath,
    args: [FIXTURE],
    env: { EVERYTHING_CHANGE: changeFile },
  });
  calls = await startGateway(
    { command: process.execPath, args: [serverEntry('server-everything'), 'stdio'] },
    { tools: { [LONG]: { kind: 'intent', risk: 'low' } } },
  );
});

afterAll(async () => {
  await main?.close();
  await calls?.close();
  rmSync(folder, { recursive: true, force: true });
});

describe('@modelcontextprotocol/server-everything behind the gateway', () => {
  it('§4.1: the BRIEF summary is the first prose sentence of its Markdown instructions', async () => {
    const brief = await main.client.hello();
    expect(brief.service.summary).toBe(
      'Audience: These instructions are written for an LLM or autonomous agent integrating with the Everything MCP Server.',
    );
  });

  it('§2.2: progress notifications of a read become EVENTs before the answer', async () => {
    const events: EventReply[] = [];
    const answer = await main.client.ask(
      LONG,
      { duration: 0.4, steps: 4 },
      {
        onEvent: (event) => events.push(event),
      },
    );
    const expected = [
      [`${LONG}: 1 of 4`, 0.25],
      [`${LONG}: 2 of 4`, 0.5],
      [`${LONG}: 3 of 4`, 0.75],
      [`${LONG}: 4 of 4`, 1],
    ];
    // The SDK client handles a notification a microtask after it arrives and a response at
    // once, so the last progress, sent right before the result, may be dropped by the SDK.
    expect(events.length).toBeGreaterThanOrEqual(3);
    expect(events.map((e) => [e.message, e.progress])).toEqual(expected.slice(0, events.length));
    expect(answer.data).toEqual({
      text: 'Long running operation completed. Duration: 0.4 seconds, Steps: 4.',
    });
  });

  it('§2.2, §4.4: progress of a committed call becomes EVENTs before the RECEIPT', async () => {
    const proposal = await propose(calls, LONG, { duration: 0.4, steps: 2 });
    const events: EventReply[] = [];
    const reply = await calls.client.commit(proposal, { onEvent: (event) => events.push(event) });
    expect(events.map((e) => e.progress)).toEqual([0.5, 1].slice(0, events.length));
    expect(events.length).toBeGreaterThanOrEqual(1);
    expect(reply.receipt.result).toEqual({
      text: 'Long running operation completed. Duration: 0.4 seconds, Steps: 2.',
    });
  });

  it('§4.4: a call whose answer is lost (the server died) leaves the commit in doubt, never resent', async () => {
    const proposal = await propose(calls, LONG, { duration: 30, steps: 30 });
    let started: () => void = () => {};
    const inFlight = new Promise<void>((resolve) => {
      started = resolve;
    });
    const commit = refusal(calls.client.commit(proposal, { onEvent: () => started() }));
    await inFlight;
    process.kill(calls.connection.pid as number, 'SIGKILL');
    const lost = await commit;
    expect(lost.code).toBe('unavailable');
    expect(lost.message).toMatch(
      new RegExp(
        `^the MCP server did not answer the call to ${LONG} \\(.*\\); it may have been carried out, so it will not be sent again$`,
      ),
    );
    const retry = await refusal(calls.client.commit(proposal));
    expect(retry.code).toBe('unavailable');
    expect(retry.message).toMatch(/in doubt after a crash, and it will not be executed again/);
    expect((await calls.gateway.service.listCommitsInDoubt()).map((c) => c.proposalId)).toEqual([
      proposal.id,
    ]);
    await eventually(() => calls.reports.some((r) => r.includes('is back (restart 1)')), 'restart');
  });

  it('§5.1: on notifications/tools/list_changed, a proposal made from a changed tool is conflict', async () => {
    const before = await propose(main, TOGGLE);
    writeFileSync(changeFile, 'Toggles logging, and now also something else.');
    process.kill(main.connection.pid as number, 'SIGUSR2');
    await eventually(
      () =>
        main.reports.includes(
          `tool ${TOGGLE} changed: proposals made from it before are refused (conflict)`,
        ),
      'the list change',
    );
    const error = await refusal(main.client.commit(before));
    expect(error.code).toBe('conflict');
    expect(error.message).toBe(
      `the server's tool ${TOGGLE} has changed since this proposal was made, so it was not called; re-run the INTENT`,
    );
    const after = await propose(main, TOGGLE);
    expect((await main.client.commit(after)).receipt.result).toMatchObject({
      text: expect.stringMatching(/^Started simulated, random-leveled logging/),
    });
  });

  it('a server that dies is restarted with backoff and reported; a changed list at reconnect voids proposals', async () => {
    const before = await propose(main, TOGGLE);
    writeFileSync(changeFile, 'Toggles logging (the restarted server says it differently).');
    const pid = main.connection.pid as number;
    process.kill(pid, 'SIGKILL');
    await eventually(() => main.reports.some((r) => r.includes('is back (restart 1)')), 'restart');
    expect(main.connection.pid).not.toBe(pid);
    expect(
      main.reports.some((r) => /`.*everything-changing\.mjs` exited; reconnecting$/.test(r)),
    ).toBe(true);
    const error = await refusal(main.client.commit(before));
    expect(error.code).toBe('conflict');
    const echo = await main.client.ask('echo', { message: 'still here' });
    expect(echo.data).toEqual({ text: 'Echo: still here' });
  });
});
