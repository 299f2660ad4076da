import type { ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { Terminal } from './fixtures/terminal.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const README = readFileSync(join(ROOT, 'README.md'), 'utf8');
/** The ports the README shows; `parley start --ephemeral` serves on free ones instead. */
const README_PORTS = { calendar: '7447', shop: '7449' } as const;

/** The first ```text block after `heading` in the README. */
function textBlockAfter(heading: string): string {
  const at = README.indexOf(heading);
  expect(at, `the README has "${heading}"`).toBeGreaterThan(-1);
  const block = /```text\n([\s\S]*?)\n```/.exec(README.slice(at));
  return block?.[1] ?? '';
}

/** The session's commands (`$ …`), each with the lines the README shows it printing. */
function commandsOf(block: string): { line: string; shown: string[] }[] {
  const commands: { line: string; shown: string[] }[] = [];
  for (const text of block.split('\n')) {
    if (text.startsWith('$ ')) commands.push({ line: text.slice(2), shown: [] });
    else commands.at(-1)?.shown.push(text);
  }
  return commands;
}

/** Output as the README may show it on another day: ids, keys, hashes, days and times elided. */
function normalized(text: string): string[] {
  return (
    text
      // biome-ignore lint/suspicious/noControlCharactersInRegex: a terminal's escape sequences
      .replace(/\u001b\[[0-9;]*[A-Za-z]|\r|[\u2800-\u28ff]/g, '')
      .replace(/ed25519:[\w-]{43}/g, 'ed25519:…')
      // A hash is 43 base64url characters, and may start with '-', where \b does not hold, or
      // with 'p_' like an id (one in 4,096): hashes first, then ids.
      .replace(/(?<![\w-])[\w-]{43}(?![\w-])/g, '…')
      .replace(/\b(p|r|o)_[\w-]{8,}/g, '$1_…')
      .replace(/\d{4}-\d\d-\d\dT\d\d:\d\d(?::\d\d)?Z/g, '…')
      .replace(/\b(Mon|Tue|Wed|Thu|Fri|Sat|Sun) \d\d:\d\d/g, '… ')
      .replace(/\(in \d+m\)/g, '(in …)')
      .split('\n')
      .map((line) => line.trimEnd())
  );
}

// Inside the checkout, as the README says, so `npx parley` is this repository's built CLI.
mkdirSync(join(ROOT, 'node_modules/.cache'), { recursive: true });
const work = mkdtempSync(join(ROOT, 'node_modules/.cache/parley-readme-'));
let server: ChildProcess | undefined;
afterAll(() => {
  if (server?.pid !== undefined && server.exitCode === null) process.kill(-server.pid, 'SIGTERM');
  rmSync(work, { recursive: true, force: true });
});

describe('the README session normalizer', () => {
  it('elides a hash, even one that starts like an id, and an id', () => {
    const hash = `p_${'a'.repeat(41)}`;
    expect(normalized(`approve ${hash} (Order) p_FpHZ9YTWj8x_WPRo`)).toEqual([
      'approve … (Order) p_…',
    ]);
  });
});

describe('the README session runs as written, on any day (issue 21)', () => {
  it('npm start prints what the README shows, and the CLI session works', {
    timeout: 600_000,
  }, async () => {
    const terminal = new Terminal(work);
    const started = await terminal.start(
      'npx parley start --data .parley-data --ephemeral',
      /over the HTTP bridge: .*\n/,
    );
    server = started.child;
    const printed = started.output();
    const port = (name: string): string =>
      new RegExp(`listening parley://127\\.0\\.0\\.1:(\\d+) \\(${name}\\)`).exec(printed)?.[1] ??
      '';
    const ports = { calendar: port('calendar'), shop: port('shop') };
    const here = (text: string): string =>
      text
        .replaceAll(`127.0.0.1:${README_PORTS.calendar}`, `127.0.0.1:${ports.calendar}`)
        .replaceAll(`127.0.0.1:${README_PORTS.shop}`, `127.0.0.1:${ports.shop}`);

    // The commands of the printout the README quotes are the ones `npm start` prints today.
    const printout = textBlockAfter('It printed:')
      .split('\n')
      .filter((line) => /^(npx parley|export) /.test(line));
    expect(printout.length).toBeGreaterThan(10);
    for (const line of printout) expect(printed).toContain(here(line));

    const ids = { p: '', r: '' };
    const session = commandsOf(textBlockAfter('A real session with the'));
    expect(session.length).toBeGreaterThan(10);
    for (const { line: written, shown } of session) {
      const line = here(written)
        .replace(/\bp_[\w-]{8,}/g, ids.p)
        .replace(/\br_[\w-]{8,}/g, ids.r);
      const { code, output } = line.startsWith('npx parley approve ')
        ? await terminal.runAtTerminal(line, /Approve\? \[y\/N\]/, 'y')
        : await terminal.run(line);
      // Exit 4: a question left for --pick (§4.3); 3: consent required (§6.6); else 0.
      const expected = shown.includes('answer with --pick N, or run one of:')
        ? 4
        : shown.some((text) => text.startsWith('✗ consent_required'))
          ? 3
          : 0;
      expect(code, `${line} exited ${code}:\n${output}`).toBe(expected);
      const actual = normalized(output);
      for (const text of normalized(here(shown.join('\n')))) {
        if (text !== '') {
          expect(actual, `${line}: the README shows "${text}"; it printed:\n${output}`).toContain(
            text,
          );
        }
      }
      ids.p = /\[(p_[\w-]+)\]/.exec(output)?.[1] ?? ids.p;
      ids.r = /^✓ .*\(receipt (r_[\w-]+)\)/m.exec(output)?.[1] ?? ids.r;
    }
    expect(ids.r).not.toBe('');
  });
});
