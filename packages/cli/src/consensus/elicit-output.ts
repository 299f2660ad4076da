import {
  type ConfirmedSheet,
  ConsensusError,
  draftToDict,
  partyFileDict,
  pyDumps,
  type SheetDraft,
} from '@parley/consensus';
import { ModelError } from '@parley/models';
import type { CliContext } from '../cli-context.js';
import { CliError } from '../cli-error.js';
import { fileNameFor } from '../home/file-name.js';
import { PRIVATE_FILE_MODE } from '../home/json-file.js';
import { commandLine } from '../shell-quote.js';
import { writeTextFile } from '../text-file.js';

/** Runs `step`, turning the engine's and the models' refusals into one CliError sentence. */
export async function elicitStep<T>(step: () => T | Promise<T>, what = ''): Promise<T> {
  try {
    return await step();
  } catch (error) {
    if (error instanceof ConsensusError || error instanceof ModelError) {
      throw new CliError(`${what}${error.message}`);
    }
    throw error;
  }
}

/** Where a participant's party file goes unless `--out` says: `NAME.party.json` here. */
export function defaultPartyFile(participant: string): string {
  return `${fileNameFor(participant)}.party.json`;
}

/** Keeps a draft, with its token, readable by its owner alone (0600). */
export function writeDraftFile(path: string, draft: SheetDraft): void {
  writeTextFile(path, `${pyDumps(draftToDict(draft, { withToken: true }), { indent: 2 })}\n`, {
    mode: PRIVATE_FILE_MODE,
  });
}

/** Writes the party file (0600) and says what was confirmed and what to run next. */
export function writePartyFile(
  ctx: CliContext,
  path: string,
  sheet: ConfirmedSheet,
  self: readonly string[],
): void {
  writeTextFile(path, `${pyDumps(partyFileDict(sheet), { indent: 2 })}\n`, {
    mode: PRIVATE_FILE_MODE,
  });
  const count = (n: number, what: string): string => `${n} ${what}${n === 1 ? '' : 's'}`;
  const what = `${count(sheet.hard.length, 'red line')} and ${count(sheet.utility.length, 'preference')}`;
  ctx.out(`wrote ${path} (mode 0600): ${what}, confirmed at version ${sheet.version}\n`);
  ctx.err(
    `serve it to a decision: ${commandLine([...self, 'consensus', 'delegate', '--party-file', path])}\n`,
  );
}

/**
 * What to run next on a kept draft: with questions open, the revise that answers them (each
 * answer makes a new version, so no confirm command is shown yet); with none, the confirm
 * command for exactly this version.
 */
export function nextStepHint(
  self: readonly string[],
  at: {
    readonly draftFile: string;
    readonly optionsFile: string;
    readonly partyFile: string;
    readonly draft: SheetDraft;
  },
): string {
  const { draft } = at;
  if (draft.clarifications.length > 0) {
    const revise = commandLine([
      ...self,
      'consensus',
      'revise',
      at.draftFile,
      '--options',
      at.optionsFile,
    ]);
    const ids = draft.clarifications.map((q) => q.id).join(', ');
    const first = draft.clarifications[0]?.id as string;
    return `First answer its questions (${ids}), one --answer each: ${revise} --answer ${first}='RULE' or --answer ${first}=skip; revise then prints the confirm command for the new version\n`;
  }
  const ids = draft.hard.map((h) => h.id).join(',');
  const confirm = commandLine([
    ...self,
    'consensus',
    'confirm',
    at.draftFile,
    ...(ids === '' ? [] : ['--hard', ids]),
    '--version',
    draft.version,
    '--out',
    at.partyFile,
  ]);
  return `Confirm it with:\n  ${confirm}\n`;
}
