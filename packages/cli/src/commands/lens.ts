import type { Reply } from '@parley/protocol';
import type { Command } from 'commander';
import { CliError, EXIT } from '../cli-error.js';
import type { Cli } from '../command-kit.js';
import { readStdin, stdinIsTty } from '../standard-streams.js';
import { printLens } from '../verbs/print-reply.js';

/**
 * `parley lens`: renders a JSON reply read from stdin as Lens (§9). NDJSON (an HTTP bridge
 * response: EVENTs then the final reply) renders one reply after another.
 */
export function registerLens(program: Command, cli: Cli): void {
  program
    .command('lens')
    .description('render a JSON reply (or NDJSON replies) from stdin as Lens (§9)')
    .action(
      cli.act(async () => {
        if (stdinIsTty()) cli.ctx.err('paste a JSON reply, then press Ctrl-D\n');
        const text = await readStdin();
        // renderLens renders any JSON: a value that is not a reply falls back to lean notation
        // (§9.1).
        for (const value of parseReplies(text)) printLens(cli.ctx, value as Reply);
        return EXIT.ok;
      }),
    );
}

function parseReplies(text: string): unknown[] {
  try {
    return [JSON.parse(text)];
  } catch {
    // Not one JSON value: NDJSON, one value per line.
  }
  const lines = text.split('\n').filter((line) => line.trim() !== '');
  if (lines.length === 0) throw new CliError('stdin is empty; pipe a JSON reply into parley lens');
  return lines.map((line, index) => {
    try {
      return JSON.parse(line) as unknown;
    } catch {
      throw new CliError(`stdin line ${index + 1} is not JSON`);
    }
  });
}
