import type { ReceiptReply } from '@parley/protocol';
import { describe, expect, it } from 'vitest';
import type { CliContext } from '../cli-context.js';
import { printLens } from './print-reply.js';

function capture(stdoutIsTty: boolean): { ctx: CliContext; out: string[] } {
  const out: string[] = [];
  const ctx: CliContext = {
    home: '/h',
    homeFromEnv: true,
    out: (text) => out.push(text),
    err: () => undefined,
    stdoutIsTty,
    stderrIsTty: false,
    now: () => 0,
  };
  return { ctx, out };
}

/** A receipt whose service-written summary carries a terminal escape and a bidi override. */
const hostile = {
  kind: 'RECEIPT',
  re: 'f1',
  receipt: {
    id: 'r_1',
    proposal: 'p_1',
    summary: 'Paid \u001b[2K\u001b[1Afree \u202Eevil',
    at: 1,
    undo: null,
  },
} as unknown as ReceiptReply;

describe('§9 Lens on stdout', () => {
  it('on a terminal, escapes what could repaint or reorder the line', () => {
    const { ctx, out } = capture(true);
    printLens(ctx, hostile);
    const text = out.join('');
    expect(text).not.toContain('\u001b');
    expect(text).not.toContain('\u202E');
    expect(text).toContain('\\u{1b}[2K');
    expect(text).toContain('\\u{202e}evil');
  });

  it('to a pipe, goes as rendered: a program or a model reads it there', () => {
    const { ctx, out } = capture(false);
    printLens(ctx, hostile);
    expect(out.join('')).toContain('\u202Eevil');
  });
});
