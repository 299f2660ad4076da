import { escapeServiceText, type JsonValue, type Receipt } from '@parley/protocol';
import {
  type CommitRecord,
  defineService,
  type ReceiptRecord,
  type Service,
  type Store,
} from '@parley/service';
import type { Command } from 'commander';
import type { CliContext } from '../cli-context.js';
import { CliError, EXIT, type ExitCode } from '../cli-error.js';
import type { Cli } from '../command-kit.js';
import { reasonOf } from '../home/parley-home.js';
import { serviceName } from '../serve/service-name.js';
import { openServiceStore, redactedStore } from '../serve/service-store.js';
import { storeLocation, storeTarget } from '../serve/store-location.js';
import { commandLine } from '../shell-quote.js';
import { printLens } from '../verbs/print-reply.js';

type DoubtFlags = {
  data?: string;
  store?: string;
  applied?: string;
  notApplied?: string;
  result?: string;
  json?: boolean;
};

/** One thing left in doubt: a commit (by its proposal id) or an undo (by its receipt id). */
type InDoubt = {
  kind: 'commit' | 'undo';
  id: string;
  capability: string;
  summary: string;
  /** When the commit or the undo began (unix seconds). */
  since: number;
};

/**
 * `parley doubt SERVICE [DOCUMENT]`: the commits and undos a service's store holds in doubt (an
 * apply or revert with effects outside the store that a crash interrupted, or whose upstream's
 * answer was lost), which the service never runs a second time (§4.4, §4.5); with `--applied ID`
 * or `--not-applied ID`, the operator's word on one of them.
 */
export function registerDoubt(program: Command, cli: Cli): void {
  storeTarget(
    program
      .command('doubt')
      .description(
        "list the commits and undos left in doubt in a service's store, and settle one (§4.4, §4.5)",
      ),
  )
    .option(
      '--applied <id>',
      "it happened: write the commit's receipt (a proposal id) or the undo's reversal (a receipt id)",
    )
    .option(
      '--not-applied <id>',
      'it did not happen: the proposal can be committed again, or the receipt undone again',
    )
    .option('--result <json>', 'with --applied: the result the receipt records (JSON)')
    .option('--json', 'print JSON: the records in doubt, or the receipt written')
    .action(
      cli.act(async (target: string, document: string | undefined, flags: DoubtFlags) => {
        const { ctx } = cli;
        const settling = settlingOf(flags);
        const name = serviceName(target, document === undefined ? [] : [document], 'doubt');
        const location = storeLocation(ctx, name, flags);
        // An operator's look never creates a store where none was (a mistyped folder or schema).
        const store = await openServiceStore(name, location, true);
        try {
          // Settling needs no capability: the store holds the proposal and the receipt.
          const service = defineService({ id: name, name, trust: [], store });
          if (settling !== undefined) return await settle(ctx, service, store, settling, flags);
          const found = await inDoubt(service, store);
          if (flags.json === true) ctx.out(`${JSON.stringify(found)}\n`);
          else
            printInDoubt(
              ctx,
              found,
              redactedStore(location),
              doubtCommand(cli.self, target, document, flags),
            );
          return EXIT.ok;
        } finally {
          await store.close();
        }
      }),
    );
}

type Settling = { id: string; applied: boolean; result?: JsonValue };

/** What --applied, --not-applied and --result ask for; conflicting flags are refused. */
function settlingOf(flags: DoubtFlags): Settling | undefined {
  if (flags.store !== undefined && flags.data !== undefined) {
    throw new CliError('--store and --data both say where state lives: give one of them');
  }
  if (flags.applied !== undefined && flags.notApplied !== undefined) {
    throw new CliError('--applied and --not-applied contradict each other: give one of them');
  }
  if (flags.result !== undefined && flags.applied === undefined) {
    throw new CliError('--result goes with --applied: it is what the receipt records');
  }
  if (flags.applied !== undefined) {
    return flags.result === undefined
      ? { id: flags.applied, applied: true }
      : { id: flags.applied, applied: true, result: parseResult(flags.result) };
  }
  return flags.notApplied === undefined ? undefined : { id: flags.notApplied, applied: false };
}

function parseResult(text: string): JsonValue {
  try {
    return JSON.parse(text) as JsonValue;
  } catch (error) {
    throw new CliError(`--result is not JSON: ${reasonOf(error)}`);
  }
}

/** Everything in doubt, oldest first: commits with their proposal's capability and summary. */
async function inDoubt(service: Service, store: Store): Promise<InDoubt[]> {
  const commits = await Promise.all(
    (await service.listCommitsInDoubt()).map(async (c: CommitRecord): Promise<InDoubt> => {
      const proposal = (await store.getProposal(c.proposalId))?.proposal;
      return {
        kind: 'commit',
        id: c.proposalId,
        capability: proposal?.capability ?? '?',
        summary: proposal?.summary ?? '(the proposal is gone)',
        since: c.startedAt,
      };
    }),
  );
  const undos = (await service.listUndoInDoubt()).map(
    (r: ReceiptRecord): InDoubt => ({
      kind: 'undo',
      id: r.receipt.id,
      capability: r.receipt.capability,
      summary: r.receipt.summary,
      since: r.undo?.state === 'undoing' ? r.undo.startedAt : r.receipt.at,
    }),
  );
  return [...commits, ...undos].sort((a, b) => a.since - b.since);
}

/** This command as the person typed it, without the settling flags, for the printed hints. */
function doubtCommand(
  self: readonly string[],
  target: string,
  document: string | undefined,
  flags: DoubtFlags,
): string[] {
  return [
    ...self,
    'doubt',
    target,
    ...(document === undefined ? [] : [document]),
    ...(flags.data === undefined ? [] : ['--data', flags.data]),
    // A URL's password never reaches the terminal: the person puts theirs back.
    ...(flags.store === undefined ? [] : ['--store', redactedStore(flags.store)]),
  ];
}

function printInDoubt(ctx: CliContext, found: InDoubt[], where: string, self: string[]): void {
  if (found.length === 0) {
    ctx.out(`nothing in doubt in ${where}\n`);
    return;
  }
  // Summaries are the service's text: escaped on a terminal, as Lens is (§9).
  const shown = (text: string) => (ctx.stdoutIsTty ? escapeServiceText(text) : text);
  ctx.out(`${found.length} in doubt in ${where}\n`);
  for (const item of found) {
    const since = new Date(item.since * 1000).toISOString().replace('.000Z', 'Z');
    ctx.out(`${item.kind} ${item.id} ${item.capability} "${shown(item.summary)}" since ${since}\n`);
  }
  const id = found.length === 1 ? (found[0] as InDoubt).id : 'ID';
  ctx.err(
    [
      'each was interrupted after its effect may have happened, and never runs again by itself.',
      'find out whether it happened (at the upstream), then, while no instance is running it:',
      `  ${commandLine([...self, '--applied', id])}`,
      '      it happened: retries get its receipt (add --result JSON: what its apply returned)',
      `  ${commandLine([...self, '--not-applied', id])}`,
      '      it did not: it can be committed (or undone) again',
      '',
    ].join('\n'),
  );
}

/** Settles one commit or undo in doubt; prints the receipt written, or what is open again. */
async function settle(
  ctx: CliContext,
  service: Service,
  store: Store,
  settling: Settling,
  flags: DoubtFlags,
): Promise<ExitCode> {
  const { id, applied } = settling;
  const resolution = applied
    ? {
        applied: true as const,
        ...(settling.result === undefined ? {} : { result: settling.result }),
      }
    : { applied: false as const };
  let written: Receipt | null;
  if ((await store.getCommit(id))?.state === 'applying') {
    written = await service.resolveCommit(id, resolution);
    if (written === null) ctx.out(`released: proposal ${id} can be committed again\n`);
  } else if ((await store.getReceipt(id))?.undo?.state === 'undoing') {
    written = await service.resolveUndo(id, resolution);
    if (written === null) ctx.out(`released: receipt ${id} can be undone again\n`);
  } else {
    throw new CliError(
      `nothing in doubt has the id ${id}: give a proposal id or a receipt id that parley doubt lists`,
    );
  }
  if (written !== null) {
    if (flags.json === true) ctx.out(`${JSON.stringify(written)}\n`);
    else printLens(ctx, { kind: 'RECEIPT', receipt: written });
    ctx.err(`settled: retries of ${id} now get receipt ${written.id}\n`);
  }
  return EXIT.ok;
}
