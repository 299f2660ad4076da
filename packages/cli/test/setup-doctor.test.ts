import { chmodSync, existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ParleyServer } from '@parley/transport';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openHost } from '../../mcp/test/support/hosts.js';
import { CHILD_TEST_TIMEOUT_MS, runCli } from './fixtures/cli-process.js';
import { serveGrantedCalendar } from './fixtures/granted-calendar.js';
import { tempFolder } from './fixtures/temp-home.js';

/**
 * `parley setup` and `parley doctor` as a person runs them, on a temporary HOME: the host file
 * written, the bridge started from it exactly as the host would, and every check's line.
 */
const folder = tempFolder();
const user = join(folder.path, 'user');
const env = { PARLEY_HOME: folder.home, HOME: user, XDG_CONFIG_HOME: '', CODEX_HOME: '' };
const desktopConfig = join(user, '.config', 'Claude', 'claude_desktop_config.json');
let calendar: ParleyServer;

beforeAll(async () => {
  mkdirSync(user);
  calendar = await serveGrantedCalendar(env);
}, CHILD_TEST_TIMEOUT_MS);
afterAll(async () => {
  await calendar?.close();
  folder.remove();
});

describe('parley setup HOST, then the host starts the bridge as written', {
  timeout: CHILD_TEST_TIMEOUT_MS,
}, () => {
  it('Claude Desktop: the entry runs this CLI by absolute path with PARLEY_HOME, and serves the service', async () => {
    const setup = await runCli(
      ['setup', 'claude-desktop', '--services', calendar.address, '--consensus'],
      env,
    );
    expect(setup.code).toBe(0);
    expect(setup.stdout).toBe(
      `Claude Desktop: wrote parley and parley-consensus to ${desktopConfig}\n`,
    );
    expect(setup.stderr).toContain('undo with: parley setup --remove claude-desktop');
    const entry = JSON.parse(readFileSync(desktopConfig, 'utf8')).mcpServers.parley;
    expect(entry.command).toBe(process.execPath);
    expect(entry.args[0]).toBe(fileURLToPath(new URL('../bin/parley.js', import.meta.url)));
    expect(entry.env).toEqual({ PARLEY_HOME: folder.home });
    // The host's view: only PATH and the entry's own env, no repository on the PATH.
    const host = await openHost({
      era: '2025-11-25',
      command: entry.command,
      args: entry.args,
      env: entry.env,
    });
    try {
      const tools = await host.client.listTools();
      const ask = tools.tools.find((tool) => tool.name === 'parley_ask');
      expect(ask?.description).toContain('# Example Calendar (cal.example.com)');
    } finally {
      await host.close();
    }
    const again = await runCli(
      ['setup', 'claude-desktop', '--services', calendar.address, '--consensus'],
      env,
    );
    expect(again.stdout).toContain('nothing changed');
  });

  it('parley doctor: one line per check, exit 0; a key others can read, or a host whose home has no keys, fails with the fix', async () => {
    const healthy = await runCli(['doctor'], env);
    expect(healthy.code).toBe(0);
    const lines = healthy.stdout.trimEnd().split('\n');
    expect(lines.every((line) => /^[✓!✗] \S.*: /.test(line))).toBe(true);
    expect(lines[0]).toMatch(/^✓ node: Node \d+/);
    expect(healthy.stdout).toMatch(/^✓ agent key: ed25519:\S+ in \S+agent\.key, mode 600$/m);
    expect(healthy.stdout).toMatch(/^✓ grants: 1 usable in /m);
    expect(healthy.stdout).toContain(`✓ Claude Desktop parley: ${desktopConfig} runs `);
    expect(healthy.stdout).toContain(`✓ service ${calendar.address}: answers as cal.example.com`);
    expect(healthy.stdout).toMatch(
      /^✓ grants for cal\.example\.com: 1 usable, from ed25519:\S+ \(this home's principal\)/m,
    );
    expect(healthy.stderr).toMatch(/^all \d+ checks passed$/m);

    const agentKey = join(folder.home, 'agent.key');
    chmodSync(agentKey, 0o644);
    const exposed = await runCli(['doctor'], env);
    chmodSync(agentKey, 0o600);
    expect(exposed.code).toBe(1);
    expect(exposed.stdout).toMatch(/^✗ agent key: .*mode 644.* — fix: chmod 600 \S+agent\.key$/m);

    // The README's old configuration: a bridge whose PARLEY_HOME holds no keys exits at start.
    const empty = join(folder.path, 'no-keys');
    const cursor = await runCli(['setup', 'cursor', '--services', calendar.address], {
      ...env,
      PARLEY_HOME: empty,
    });
    expect(cursor.stderr).toContain('there is no agent key in that home yet');
    const broken = await runCli(['doctor'], env);
    expect(broken.code).toBe(1);
    expect(broken.stdout).toContain(
      `✗ Cursor parley: PARLEY_HOME=${empty} (in ${join(user, '.cursor', 'mcp.json')}) has no agent key, so the bridge exits at start — fix: PARLEY_HOME=${empty} parley keys init`,
    );
    expect(broken.stderr).toMatch(/^1 of \d+ checks failed$/m);
    const removed = await runCli(['setup', '--remove', 'cursor'], { ...env, PARLEY_HOME: empty });
    expect(removed.stdout).toContain('removed');
  });

  it('parley setup --remove puts the file back, and an unknown host is one sentence and exit 2', async () => {
    const removed = await runCli(['setup', '--remove', 'claude-desktop'], env);
    expect(removed.code).toBe(0);
    expect(removed.stdout).toContain('which parley setup had created');
    expect(existsSync(desktopConfig)).toBe(false);
    const unknown = await runCli(['setup', 'notepad'], env);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toBe(
      'parley: "notepad" is not a host parley can set up; use one of claude-code, claude-desktop, cursor, vscode, codex, windsurf, gemini\n',
    );
  });
});
