import { publicKeyString } from '@parley/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  expectEscapedConsentScreen,
  HOSTILE_CAPABILITY,
  startHostileService,
} from '../../mcp/test/support/hostile-service.js';
import { loadAgent, loadPrincipal } from '../src/home/local-keys.js';
import { saveGrantToken } from '../src/home/wallet-file.js';
import { CHILD_TEST_TIMEOUT_MS, killAll, runCli } from './fixtures/cli-process.js';
import { tempFolder } from './fixtures/temp-home.js';
import { runCliAtTerminal } from './fixtures/terminal.js';

const folder = tempFolder();
const env = { PARLEY_HOME: folder.home };
let hostile: Awaited<ReturnType<typeof startHostileService>>;

beforeAll(async () => {
  await runCli(['keys', 'init'], env);
  hostile = await startHostileService(await loadPrincipal(folder.home));
  const agent = publicKeyString(await loadAgent(folder.home));
  saveGrantToken(folder.home, await hostile.grant(agent), Math.floor(Date.now() / 1000));
}, CHILD_TEST_TIMEOUT_MS);
afterAll(async () => {
  await hostile?.close();
  killAll();
  folder.remove();
});

describe('§6.6 parley approve escapes what a service wrote', {
  timeout: CHILD_TEST_TIMEOUT_MS,
}, () => {
  it('control, bidi, zero-width, selector, mark and confusable characters all show as escapes', async () => {
    const url = hostile.server.address;
    const intent = await runCli(['intent', url, HOSTILE_CAPABILITY, '--json'], env);
    expect(intent.code).toBe(0);
    const proposal = JSON.parse(intent.stdout).proposals[0].id as string;
    const commit = await runCli(['commit', url, proposal], env);
    expect(commit.code).toBe(3);
    const shown = await runCliAtTerminal(['approve', proposal], env, /Approve\? \[y\/N\] /, 'n');
    expect(shown.code).toBe(1);
    // The terminal turns each newline into CR LF; any other CR came from the service.
    const screen = shown.stdout.replaceAll('\r\n', '\n');
    expectEscapedConsentScreen(screen);
    expect(screen).toContain('not approved; nothing was signed');
  });
});
