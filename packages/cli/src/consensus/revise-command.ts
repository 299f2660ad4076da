import { attributeCatalog, readDraft, reviseSheet } from '@parley/consensus';
import type { CliContext } from '../cli-context.js';
import { CliError, EXIT, type ExitCode } from '../cli-error.js';
import { readTextFile } from '../text-file.js';
import { changeFor } from './draft-changes.js';
import { draftLines } from './draft-view.js';
import { defaultPartyFile, elicitStep, nextStepHint, writeDraftFile } from './elicit-output.js';
import { readOptionsFile } from './options-file.js';

export type ReviseFlags = {
  options: string;
  drop?: string[];
  fix?: string[];
  add?: string[];
  answer?: string[];
  out?: string;
};

/**
 * `parley consensus revise DRAFT --options FILE [--answer q1=RULE|skip] [--drop ID] [--fix
 * ID=RULE] [--add RULE]`: changes a kept draft the way the terminal does (checked against the
 * options), writes the new draft (a new version) over DRAFT or to --out, prints it, and says
 * what to run next: the confirm command for exactly that version once no question is open.
 */
export async function runRevise(
  ctx: CliContext,
  self: readonly string[],
  path: string,
  flags: ReviseFlags,
): Promise<ExitCode> {
  const draft = await elicitStep(async () => readDraft(await readTextFile(path)), `${path}: `);
  const { options } = await readOptionsFile(flags.options);
  const catalog = attributeCatalog(options);
  const pair = (text: string, flag: string): { id: string; rule: string } => {
    const at = text.indexOf('=');
    if (at < 1) throw new CliError(`${flag} takes ID=RULE, as in ${flag} h1='cost <= 650'`);
    return { id: text.slice(0, at).trim(), rule: text.slice(at + 1) };
  };
  let current = draft;
  const apply = async (words: Parameters<typeof changeFor>[0]): Promise<void> => {
    current = await elicitStep(() =>
      reviseSheet(
        current,
        {
          participant: current.participant,
          token: current.token,
          ops: [changeFor(words, current, catalog)],
        },
        { options },
      ),
    );
  };
  for (const text of flags.answer ?? []) await apply({ verb: 'answer', ...pair(text, '--answer') });
  for (const id of flags.drop ?? []) await apply({ verb: 'drop', id });
  for (const text of flags.fix ?? []) await apply({ verb: 'fix', ...pair(text, '--fix') });
  for (const rule of flags.add ?? []) await apply({ verb: 'add', rule });
  const out = flags.out ?? path;
  writeDraftFile(out, current);
  ctx.out(`${draftLines(current, options).join('\n')}\n`);
  ctx.err(`wrote the revised draft to ${out} (mode 0600): version ${current.version}\n`);
  ctx.err(
    nextStepHint(self, {
      draftFile: out,
      optionsFile: flags.options,
      partyFile: defaultPartyFile(current.participant),
      draft: current,
    }),
  );
  return EXIT.ok;
}
