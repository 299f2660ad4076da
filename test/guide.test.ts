import type { ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { Terminal } from './fixtures/terminal.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const GUIDE = 'docs/your-own-service.md';
/**
 * The port the guide serves on. The test's server takes port 0 instead (the system binds a free
 * one, so no other test can take it first) and every later line uses the port it printed.
 */
const GUIDE_PORT = '7450';

/** One fenced block of the guide: a file to save, shell lines to run, or output to expect. */
type Block =
  | { kind: 'file'; name: string; text: string }
  | { kind: 'sh'; lines: string[]; server: boolean }
  | { kind: 'text'; text: string };

/** The guide's blocks in order: ```ts NAME (a file), ```sh [server] (commands), ```text. */
function blocksOf(markdown: string): Block[] {
  const blocks: Block[] = [];
  for (const match of markdown.matchAll(/^```(\w+)(?: (\S+))?\n([\s\S]*?)^```$/gm)) {
    const [, language, label, text = ''] = match;
    if (language === 'ts' && label !== undefined) blocks.push({ kind: 'file', name: label, text });
    else if (language === 'sh') {
      const lines = text.split('\n').filter((line) => line.trim() !== '' && !line.startsWith('#'));
      blocks.push({ kind: 'sh', lines, server: label === 'server' });
    } else if (language === 'text') blocks.push({ kind: 'text', text });
  }
  return blocks;
}

/** Output as the guide writes it: ids and times elided. */
function normalized(text: string): string[] {
  return text
    .replace(/\b(p|r)_[\w-]{8,}/g, '$1_…')
    .replace(/\d{4}-\d\d-\d\dT\d\d:\d\d(?::\d\d)?Z/g, '…')
    .split('\n')
    .map((line) => line.trimEnd());
}

/** The port `parley serve` printed it bound: `listening parley://HOST:PORT (NAME)`. */
function boundPort(output: string): string {
  const port = /^listening parley:\/\/[^\s]*:(\d+) /m.exec(output)?.[1];
  if (port === undefined || port === '0') throw new Error(`no bound port in: ${output}`);
  return port;
}

/** `text` with the guide's port made the test server's; the guide names it only once served. */
function onPort(text: string, port: string | undefined): string {
  if (port === undefined && text.includes(GUIDE_PORT)) {
    throw new Error(`the guide names port ${GUIDE_PORT} before its server starts: ${text}`);
  }
  return port === undefined ? text : text.replaceAll(GUIDE_PORT, port);
}

// Inside the checkout, as the guide says, so `npx parley` finds this repository's CLI.
mkdirSync(join(ROOT, 'node_modules/.cache'), { recursive: true });
const work = mkdtempSync(join(ROOT, 'node_modules/.cache/parley-guide-'));
const servers: ChildProcess[] = [];
afterAll(() => {
  for (const server of servers) {
    if (server.pid !== undefined && server.exitCode === null) process.kill(-server.pid, 'SIGTERM');
  }
  rmSync(work, { recursive: true, force: true });
});

describe(`${GUIDE} runs as written (issue 14)`, () => {
  it('every file, command and output of the guide', { timeout: 600_000 }, async () => {
    let port: string | undefined;
    const terminal = new Terminal(work);
    const ids = { PROPOSAL_ID: '', RECEIPT_ID: '' };
    let last: string[] | undefined;
    const blocks = blocksOf(readFileSync(join(ROOT, GUIDE), 'utf8'));
    expect(blocks.filter((b) => b.kind === 'sh').length).toBeGreaterThan(8);
    for (const block of blocks) {
      if (block.kind === 'file') {
        writeFileSync(join(terminal.folder, block.name), block.text);
      } else if (block.kind === 'text') {
        if (last === undefined) continue; // shown before any command: not an output
        for (const line of normalized(onPort(block.text, port))) {
          if (line !== '') expect(last, `the guide shows "${line}"`).toContain(line);
        }
        last = undefined;
      } else {
        for (const written of block.lines) {
          const line = (
            block.server ? written.replaceAll(GUIDE_PORT, '0') : onPort(written, port)
          ).replace(/\b(PROPOSAL_ID|RECEIPT_ID)\b/g, (name) => ids[name as keyof typeof ids]);
          if (block.server) {
            const server = await terminal.start(line, /^listening .*\n/m);
            servers.push(server.child);
            port = boundPort(server.output());
            last = normalized(server.output());
            continue;
          }
          const { code, output } = await terminal.run(line);
          expect(code, `${line} exited ${code}:\n${output}`).toBe(0);
          ids.PROPOSAL_ID = /\[(p_[\w-]+)\]/.exec(output)?.[1] ?? ids.PROPOSAL_ID;
          ids.RECEIPT_ID = /^✓ .*\(receipt (r_[\w-]+)\)/m.exec(output)?.[1] ?? ids.RECEIPT_ID;
          last = normalized(output);
        }
      }
    }
    expect(ids.RECEIPT_ID).not.toBe('');
  });
});
