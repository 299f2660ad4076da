import type { EventReply } from '@parley/protocol';
import { describe, expect, it } from 'vitest';
import type { CliContext } from '../cli-context.js';
import { ProgressView } from './progress-view.js';

function contextWith(stderrIsTty: boolean): { ctx: CliContext; err: string[] } {
  const err: string[] = [];
  const ctx: CliContext = {
    home: '/nowhere',
    homeFromEnv: true,
    out: () => undefined,
    err: (text) => err.push(text),
    stdoutIsTty: false,
    stderrIsTty,
    now: () => 0,
  };
  return { ctx, err };
}

/** Carriage return, then ANSI "erase line". */
const CLEAR = '\r\u001b[2K';

const event = (message: string, progress?: number): EventReply => ({
  parley: 1,
  id: 'e',
  re: '1',
  kind: 'EVENT',
  message,
  ...(progress === undefined ? {} : { progress }),
});

describe('§2.2 EVENT progress on stderr', () => {
  it('is one Lens line per event when stderr is not a terminal', () => {
    const { ctx, err } = contextWith(false);
    const view = new ProgressView(ctx);
    view.onEvent(event('charging', 0.5));
    view.onEvent(event('working'));
    view.done();
    expect(err).toEqual(['… charging (50%)\n', '… working\n']);
  });

  it('is a bar redrawn in place on a terminal, cleared at the end', () => {
    const { ctx, err } = contextWith(true);
    const view = new ProgressView(ctx);
    view.onEvent(event('charging', 0.5));
    view.onEvent(event('done\u001b[2J', 1));
    view.done();
    expect(err[0]).toBe(`${CLEAR}${'█'.repeat(12)}${'░'.repeat(12)}  50% charging`);
    expect(err[1]).toMatch(/█{24} 100% done\\u\{1b\}\[2J$/);
    expect(err[2]).toBe(CLEAR);
  });
});
