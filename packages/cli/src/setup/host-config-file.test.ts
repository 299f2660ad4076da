import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { parse as parseToml } from 'smol-toml';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CliError } from '../cli-error.js';
import { removeFromHostFile, setUpHostFile } from './host-config-file.js';
import { hostConfigFormat } from './host-config-format.js';
import { cliScript, ENTRY_NAMES, parleyEntries } from './mcp-entry.js';
import { HOSTS, type HostEnvironment, MCP_HOSTS, type McpHostId } from './mcp-hosts.js';

let root: string;
let where: HostEnvironment;
let home: string;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'parley-setup-'));
  where = { home: join(root, 'user'), platform: 'linux', env: {} };
  mkdirSync(where.home);
  home = join(root, 'parley-home');
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

const entries = () => parleyEntries({ services: ['parley://127.0.0.1:9'], consensus: true, home });
const names = Object.values(ENTRY_NAMES);

/** The servers a host's file holds, read the way that host reads it. */
function serversIn(id: McpHostId, file: string): Record<string, Record<string, unknown>> {
  const text = readFileSync(file, 'utf8');
  const format = HOSTS[id].format;
  if (format.kind === 'toml') return (parseToml(text) as { mcp_servers: never }).mcp_servers;
  return JSON.parse(text)[format.root];
}

/** A file the person already had, with their own servers and formatting. */
function existingText(id: McpHostId): string {
  const format = HOSTS[id].format;
  if (format.kind === 'toml') {
    return 'model = "o3"  # mine\n\n[mcp_servers.other]\ncommand = "other"\nargs = ["x"]\n';
  }
  return `{\n\t"theme": "dark",\n\t"${format.root}": {\n\t\t"other": { "command": "other" }\n\t}\n}`;
}

describe('where each host keeps its MCP servers', () => {
  it('user files by platform, from each host’s documentation', () => {
    const at = (platform: NodeJS.Platform, env: NodeJS.ProcessEnv = {}) => ({
      home: '/h',
      platform,
      env,
    });
    expect(HOSTS['claude-code'].userFile(at('linux'))).toBe('/h/.claude.json');
    expect(HOSTS['claude-desktop'].userFile(at('darwin'))).toBe(
      '/h/Library/Application Support/Claude/claude_desktop_config.json',
    );
    expect(HOSTS['claude-desktop'].userFile(at('win32', { APPDATA: '/h/AppData/Roaming' }))).toBe(
      '/h/AppData/Roaming/Claude/claude_desktop_config.json',
    );
    expect(HOSTS.cursor.userFile(at('linux'))).toBe('/h/.cursor/mcp.json');
    expect(HOSTS.vscode.userFile(at('linux', { XDG_CONFIG_HOME: '/x' }))).toBe(
      '/x/Code/User/mcp.json',
    );
    expect(HOSTS.vscode.userFile(at('darwin'))).toBe(
      '/h/Library/Application Support/Code/User/mcp.json',
    );
    expect(HOSTS.codex.userFile(at('linux'))).toBe('/h/.codex/config.toml');
    expect(HOSTS.codex.userFile(at('linux', { CODEX_HOME: '/c' }))).toBe('/c/config.toml');
    expect(HOSTS.windsurf.userFile(at('linux'))).toBe('/h/.codeium/windsurf/mcp_config.json');
    expect(HOSTS.gemini.userFile(at('linux'))).toBe('/h/.gemini/settings.json');
    expect(HOSTS.vscode.projectFile?.('/p')).toBe('/p/.vscode/mcp.json');
    expect(HOSTS['claude-code'].projectFile?.('/p')).toBe('/p/.mcp.json');
  });
});

describe('parley setup on a temporary home, for every host', () => {
  for (const id of MCP_HOSTS) {
    const host = HOSTS[id];

    it(`${id}: writes the entries a host starts as written, idempotently, and --remove deletes the file it created`, () => {
      const file = host.userFile(where);
      const format = hostConfigFormat(host.format, file);
      expect(setUpHostFile(home, file, format, entries())).toEqual({
        kind: 'written',
        backup: null,
      });
      const servers = serversIn(id, file);
      expect(servers[ENTRY_NAMES.bridge]).toEqual({
        ...(host.format.kind === 'json' && host.format.stdioType ? { type: 'stdio' } : {}),
        command: process.execPath,
        args: [cliScript(), 'mcp', 'parley://127.0.0.1:9'],
        env: { PARLEY_HOME: home },
      });
      expect(servers[ENTRY_NAMES.consensus]).toMatchObject({
        args: [cliScript(), 'consensus-mcp'],
      });
      expect(existsSync(cliScript())).toBe(true);
      const written = readFileSync(file);
      expect(setUpHostFile(home, file, format, entries())).toEqual({ kind: 'unchanged' });
      expect(readFileSync(file)).toEqual(written);
      expect(removeFromHostFile(home, file, format, names)).toEqual({
        kind: 'restored',
        existed: false,
      });
      expect(existsSync(file)).toBe(false);
      // The folders setup made for the file go too; the home it found stays.
      expect(existsSync(dirname(file))).toBe(dirname(file) === where.home);
      expect(existsSync(where.home)).toBe(true);
      expect(removeFromHostFile(home, file, format, names)).toEqual({ kind: 'nothing' });
    });

    it(`${id}: keeps what the file held, and --remove restores it byte for byte`, () => {
      const file = host.userFile(where);
      mkdirSync(dirname(file), { recursive: true });
      const before = existingText(id);
      writeFileSync(file, before);
      const format = hostConfigFormat(host.format, file);
      const outcome = setUpHostFile(home, file, format, entries());
      expect(outcome).toEqual({ kind: 'written', backup: `${file}.parley-backup` });
      expect(readFileSync(`${file}.parley-backup`, 'utf8')).toBe(before);
      const servers = serversIn(id, file);
      expect(servers.other).toMatchObject({ command: 'other' });
      expect(Object.keys(servers)).toEqual(['other', ...names]);
      // A second run with other services updates the entry and keeps the first backup.
      const other = parleyEntries({ services: ['parley://127.0.0.1:8'], consensus: false, home });
      setUpHostFile(home, file, format, other);
      expect(serversIn(id, file)[ENTRY_NAMES.bridge]?.args).toContain('parley://127.0.0.1:8');
      expect(existsSync(`${file}.parley-backup.2`)).toBe(false);
      expect(removeFromHostFile(home, file, format, names)).toEqual({
        kind: 'restored',
        existed: true,
      });
      expect(readFileSync(file, 'utf8')).toBe(before);
      expect(existsSync(`${file}.parley-backup`)).toBe(false);
    });
  }

  it('a file edited since setup loses only the parley entries, and the backup stays', () => {
    const file = HOSTS.cursor.userFile(where);
    const format = hostConfigFormat(HOSTS.cursor.format, file);
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, '{"mcpServers": {}}\n');
    setUpHostFile(home, file, format, entries());
    const edited = JSON.parse(readFileSync(file, 'utf8'));
    edited.mcpServers.mine = { command: 'mine' };
    writeFileSync(file, JSON.stringify(edited));
    expect(removeFromHostFile(home, file, format, names)).toEqual({
      kind: 'entries-removed',
      backup: `${file}.parley-backup`,
    });
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({
      mcpServers: { mine: { command: 'mine' } },
    });
    expect(readFileSync(`${file}.parley-backup`, 'utf8')).toBe('{"mcpServers": {}}\n');
  });

  it('refuses, changing nothing, a file it cannot read safely', () => {
    const file = HOSTS.vscode.userFile(where);
    mkdirSync(dirname(file), { recursive: true });
    const jsonc = '{\n  // my servers\n  "servers": {}\n}\n';
    writeFileSync(file, jsonc);
    const vscode = hostConfigFormat(HOSTS.vscode.format, file);
    expect(() => setUpHostFile(home, file, vscode, entries())).toThrow(CliError);
    expect(readFileSync(file, 'utf8')).toBe(jsonc);
    const toml = HOSTS.codex.userFile(where);
    mkdirSync(dirname(toml), { recursive: true });
    const mine = '[mcp_servers.parley]\ncommand = "mine"\n';
    writeFileSync(toml, mine);
    const codex = hostConfigFormat(HOSTS.codex.format, toml);
    expect(() => setUpHostFile(home, toml, codex, entries())).toThrow(
      /already defines \[mcp_servers\.parley\]/,
    );
    expect(readFileSync(toml, 'utf8')).toBe(mine);
  });
});

describe('parley setup and links planted in a shared project folder (issue 21)', () => {
  it('writes no file through a link at a predictable temporary name, FILE.PID.tmp', () => {
    const project = join(root, 'shared-project');
    mkdirSync(project);
    const victim = join(root, 'victim');
    writeFileSync(victim, 'the victim file\n');
    chmodSync(victim, 0o644);
    const file = HOSTS.cursor.projectFile?.(project) as string;
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, '{"mcpServers": {}}\n');
    symlinkSync(victim, `${file}.${process.pid}.tmp`);
    const format = hostConfigFormat(HOSTS.cursor.format, file);
    setUpHostFile(home, file, format, entries());
    expect(serversIn('cursor', file)[ENTRY_NAMES.bridge]).toBeDefined();
    removeFromHostFile(home, file, format, names);
    expect(readFileSync(file, 'utf8')).toBe('{"mcpServers": {}}\n');
    expect(readFileSync(victim, 'utf8')).toBe('the victim file\n');
    expect(statSync(victim).mode & 0o777).toBe(0o644);
  });

  it('does not follow a link planted at the backup name: the backup goes beside it', () => {
    const victim = join(root, 'victim');
    writeFileSync(victim, 'the victim file\n');
    const file = HOSTS.gemini.projectFile?.(join(root, 'p')) as string;
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, '{}\n');
    symlinkSync(victim, `${file}.parley-backup`);
    const outcome = setUpHostFile(
      home,
      file,
      hostConfigFormat(HOSTS.gemini.format, file),
      entries(),
    );
    expect(outcome).toEqual({ kind: 'written', backup: `${file}.parley-backup.2` });
    expect(readFileSync(`${file}.parley-backup.2`, 'utf8')).toBe('{}\n');
    expect(readFileSync(victim, 'utf8')).toBe('the victim file\n');
  });
});

describe('parley setup --http: an entry that reaches parley mcp --http with its bearer token', () => {
  const token = 'T'.repeat(43);
  const httpEntries = () =>
    parleyEntries({
      services: [],
      consensus: false,
      home,
      http: { url: 'http://127.0.0.1:8765/mcp', token },
    });
  /** Each host's own spelling, from its documentation (see mcp-hosts.ts). */
  const spelled: Partial<Record<McpHostId, Record<string, unknown>>> = {
    'claude-code': { type: 'http', url: 'http://127.0.0.1:8765/mcp' },
    cursor: { url: 'http://127.0.0.1:8765/mcp' },
    vscode: { type: 'http', url: 'http://127.0.0.1:8765/mcp' },
    windsurf: { serverUrl: 'http://127.0.0.1:8765/mcp' },
    gemini: { httpUrl: 'http://127.0.0.1:8765/mcp' },
  };

  for (const id of MCP_HOSTS) {
    const host = HOSTS[id];
    if (id === 'claude-desktop') {
      it(`${id}: refused, its file takes local servers only; the file is not touched`, () => {
        const file = host.userFile(where);
        mkdirSync(dirname(file), { recursive: true });
        writeFileSync(file, '{}\n');
        const format = hostConfigFormat(host.format, file);
        expect(() => setUpHostFile(home, file, format, httpEntries())).toThrow(
          /takes only local \(stdio\) servers/,
        );
        expect(readFileSync(file, 'utf8')).toBe('{}\n');
      });
      continue;
    }
    it(`${id}: the host's own spelling, the token in the headers, the file the owner's alone`, () => {
      const file = host.userFile(where);
      mkdirSync(dirname(file), { recursive: true });
      const before = existingText(id);
      writeFileSync(file, before);
      chmodSync(file, 0o644);
      const format = hostConfigFormat(host.format, file);
      setUpHostFile(home, file, format, httpEntries());
      const entry = serversIn(id, file)[ENTRY_NAMES.bridge];
      if (id === 'codex') {
        expect(entry).toEqual({
          url: 'http://127.0.0.1:8765/mcp',
          http_headers: { Authorization: `Bearer ${token}` },
        });
      } else {
        expect(entry).toEqual({ ...spelled[id], headers: { Authorization: `Bearer ${token}` } });
      }
      expect(statSync(file).mode & 0o777).toBe(0o600);
      expect(statSync(`${file}.parley-backup`).mode & 0o777).toBe(0o644);
      removeFromHostFile(home, file, format, names);
      expect(readFileSync(file, 'utf8')).toBe(before);
    });
  }
});
