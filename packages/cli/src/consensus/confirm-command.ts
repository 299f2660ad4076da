import { confirmSheet, readDraft } from '@parley/consensus';
import type { CliContext } from '../cli-context.js';
import { EXIT, type ExitCode } from '../cli-error.js';
import { readTextFile } from '../text-file.js';
import { defaultPartyFile, elicitStep, writePartyFile } from './elicit-output.js';

export type ConfirmFlags = { hard?: string; version: string; out?: string };

/**
 * `parley consensus confirm DRAFT --hard h1,h2 --version V --out NAME.party.json`: makes a kept
 * draft binding (every red line by id, the exact version, the token the draft file holds) and
 * writes the party file (0600); or one sentence saying what is missing, and nothing written.
 */
export async function runConfirm(
  ctx: CliContext,
  self: readonly string[],
  path: string,
  flags: ConfirmFlags,
): Promise<ExitCode> {
  const draft = await elicitStep(async () => readDraft(await readTextFile(path)), `${path}: `);
  const hard = (flags.hard ?? '')
    .split(',')
    .map((id) => id.trim())
    .filter((id) => id !== '');
  const sheet = await elicitStep(() =>
    confirmSheet(draft, {
      participant: draft.participant,
      token: draft.token,
      hard,
      version: flags.version,
    }),
  );
  writePartyFile(ctx, flags.out ?? defaultPartyFile(sheet.participant), sheet, self);
  return EXIT.ok;
}
