import type { ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { Terminal } from './fixtures/terminal.js';

// Issue 23, "done means": `parley serve mcp -- npx @modelcontextprotocol/server-memory` works as
// the README's "Any MCP server behind Parley" session shows. Its commands run as written in a
// terminal inside the checkout (so `npx parley` is this repository's built CLI and `npx
// @modelcontextprotocol/server-memory` the installed devDependency, offline), on a free port.

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const README = readFileSync(join(ROOT, 'README.md'), 'utf8');
const SECTION = README.slice(README.indexOf('## Any MCP server behind Parley'));
const README_PORT = '7491';

/** The first ```text block of the section: the session. */
function session(): { line: string; shown: string[] }[] {
  const block = /```text\n([\s\S]*?)\n```/.exec(SECTION)?.[1] ?? '';
  const commands: { line: string; shown: string[] }[] = [];
  for (const text of block.split('\n')) {
    if (text.startsWith('$ ')) commands.push({ line: text.slice(2), shown: [] });
    else commands.at(-1)?.shown.push(text);
  }
  return commands;
}

/** Output as the README may show it on another day: ids, keys, hashes, times elided. */
function normalized(text: string): string[] {
  return (
    text
      // biome-ignore lint/suspicious/noControlCharactersInRegex: a terminal's escape sequences
      .replace(/\u001b\[[0-9;]*[A-Za-z]|\r/g, '')
      .replace(/\b(p|r)_[\w-]{8,}/g, '$1_…')
      .replace(/ed25519:[\w-]{43}/g, 'ed25519:…')
      .replace(/(?<![\w-])[\w-]{43}(?![\w-])/g, '…')
      .replace(/\d{4}-\d\d-\d\dT\d\d:\d\d(?::\d\d)?Z/g, '…')
      .replace(/\(in \d+m\)/g, '(in …)')
      .split('\n')
      .map((line) => line.trimEnd())
  );
}

/** Each line the README shows (a lone `…` marks lines left out) is one the command printed. */
function expectShown(line: string, shown: readonly string[], output: string): void {
  const actual = normalized(output);
  for (const text of normalized(shown.join('\n'))) {
    if (text === '' || text === '…') continue;
    expect(actual, `${line}: the README shows "${text}"; it printed:\n${output}`).toContain(text);
  }
}

mkdirSync(join(ROOT, 'node_modules/.cache'), { recursive: true });
const work = mkdtempSync(join(ROOT, 'node_modules/.cache/parley-readme-mcp-'));
let server: ChildProcess | undefined;
afterAll(() => {
  if (server?.pid !== undefined && server.exitCode === null) process.kill(-server.pid, 'SIGTERM');
  rmSync(work, { recursive: true, force: true });
});

describe('the README session of parley serve mcp runs as written (issue 23)', () => {
  it('serve, hello, intent, commit, replay, a destructive intent, consent, approve, commit', {
    timeout: 600_000,
  }, async () => {
    const terminal = new Terminal(work);
    // A home of its own, and server-memory's graph in this folder rather than its package's.
    await terminal.run(`export PARLEY_HOME="$PWD/home" MEMORY_FILE_PATH="$PWD/memory.jsonl"`);
    expect((await terminal.run('npx parley keys init')).code).toBe(0);
    const grant = /\(`(npx parley grant [^`]+)`\)/.exec(SECTION)?.[1] as string;
    expect(grant).toContain('--risk medium');
    expect((await terminal.run(grant)).code).toBe(0);

    const [serve, ...rest] = session();
    expect(serve?.line).toMatch(/^npx parley serve mcp --tcp 127\.0\.0\.1:7491 -- npx /);
    const started = await terminal.start(
      (serve?.line ?? '').replace(`127.0.0.1:${README_PORT}`, '127.0.0.1:0'),
      /listening parley:\/\/127\.0\.0\.1:\d+ \(server-memory\)\n/,
    );
    server = started.child;
    const port = /listening parley:\/\/127\.0\.0\.1:(\d+) /.exec(started.output())?.[1] as string;
    const here = (text: string) => text.replaceAll(`127.0.0.1:${README_PORT}`, `127.0.0.1:${port}`);
    // The lines before "listening" (configuration, serving) are printed before it is ready.
    expectShown(
      serve?.line ?? '',
      here((serve?.shown ?? []).join('\n')).split('\n'),
      started.output(),
    );

    const ids = { p: '', r: '' };
    expect(rest.length).toBeGreaterThan(6);
    for (const { line: written, shown } of rest) {
      const line = here(written)
        .replace(/\bp_[\w-]{8,}/g, ids.p)
        .replace(/\br_[\w-]{8,}/g, ids.r);
      const { code, output } = line.startsWith('npx parley approve ')
        ? await terminal.runAtTerminal(line, /Approve\? \[y\/N\]/, 'y')
        : await terminal.run(line);
      const consent = shown.some((text) => text.startsWith('✗ consent_required'));
      expect(code, `${line} exited ${code}:\n${output}`).toBe(consent ? 3 : 0);
      expectShown(line, here(shown.join('\n')).split('\n'), output);
      ids.p = /\[(p_[\w-]+)\]/.exec(output)?.[1] ?? ids.p;
      ids.r = /^✓ .*\(receipt (r_[\w-]+)\)/m.exec(output)?.[1] ?? ids.r;
    }
    // The session ends by deleting what it made: the graph is empty again.
    expect(readFileSync(join(work, 'memory.jsonl'), 'utf8')).not.toContain('Ana Ruiz');
  });
});
