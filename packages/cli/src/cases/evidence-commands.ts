import { readFileSync, statSync } from 'node:fs';
import { basename } from 'node:path';
import { type CaseService, MAX_EVIDENCE_BYTES } from '@parley/cases';
import type { PyValue } from '@parley/consensus';
import type { Command } from 'commander';
import { writeFileAtomically } from '../atomic-file.js';
import { CliError, EXIT, type ExitCode } from '../cli-error.js';
import { reasonOf } from '../home/parley-home.js';

type Flags = { json?: boolean };

/** What `parley cases` hands its sub-commands: the store flags, a service, and the view. */
export interface CasesKit {
  readonly withStore: (command: Command) => Command;
  readonly run: (
    work: (service: CaseService, flags: Flags, ...args: string[]) => Promise<ExitCode>,
  ) => (...raw: unknown[]) => Promise<void>;
  readonly show: (view: PyValue, flags: Flags) => ExitCode;
  readonly out: (text: string) => void;
}

/**
 * `parley cases evidence …`: the files a party keeps with a case (module 04), as the page's
 * Files panel has them. A file is private to its owner until they share it, explicitly
 * (`--confirm`); withdrawing hides it again, and its history keeps both acts.
 */
export function registerEvidence(cases: Command, kit: CasesKit): void {
  const evidence = cases
    .command('evidence')
    .description('your files for the case: add one, share or withdraw it, read one');
  const { withStore, run, show, out } = kit;

  withStore(
    evidence
      .command('add')
      .description('keep a file with your part of the case (PDF, JPEG, PNG or DOCX; private)')
      .argument('<link>')
      .argument('<file>'),
  ).action(
    run(async (service, flags, link, file) => {
      const path = file as string;
      const stat = statSync(path, { throwIfNoEntry: false });
      if (stat === undefined || !stat.isFile()) throw new CliError(`no file at ${path}`);
      // Checked before reading, so a huge file is refused without loading it.
      if (stat.size > MAX_EVIDENCE_BYTES)
        throw new CliError(
          `${path} is larger than a case takes (${MAX_EVIDENCE_BYTES / 1024} KiB)`,
        );
      let bytes: Uint8Array;
      try {
        bytes = new Uint8Array(readFileSync(path));
      } catch (error) {
        throw new CliError(`cannot read ${path}: ${reasonOf(error)}`);
      }
      const added = await service.addEvidence(link as string, { filename: basename(path), bytes });
      if (flags.json !== true) out(`Added ${added.id}: only you see it until you share it.\n`);
      return flags.json === true ? show({ id: added.id, case: added.view }, flags) : EXIT.ok;
    }),
  );

  withStore(
    evidence
      .command('share')
      .description('show one of your files to the other parties (needs --confirm)')
      .argument('<link>')
      .argument('<id>', 'the file id status prints')
      .option('--confirm', 'yes: the other parties will see this file and can download it'),
  ).action(
    run(async (service, flags, link, id) => {
      const confirmed = (flags as Flags & { confirm?: boolean }).confirm === true;
      if (!confirmed)
        throw new CliError(
          'sharing a file shows it to every other party: run again with --confirm',
        );
      return show(await service.shareEvidence(link as string, id, true, true), flags);
    }),
  );

  withStore(
    evidence
      .command('withdraw')
      .description('stop showing one of your files to the others (its history keeps both acts)')
      .argument('<link>')
      .argument('<id>', 'the file id status prints'),
  ).action(
    run(async (service, flags, link, id) =>
      show(await service.shareEvidence(link as string, id, false, null), flags),
    ),
  );

  withStore(
    evidence
      .command('get')
      .description('save a file: one of yours, or one another party shared')
      .argument('<link>')
      .argument('<id>', 'the file id status prints')
      .requiredOption('--out <file>', 'where to write it'),
  ).action(
    run(async (service, flags, link, id) => {
      const target = (flags as Flags & { out: string }).out;
      const item = await service.readEvidence(link as string, id);
      // Never half a file: a reader of `target` sees the whole file or what was there before.
      writeFileAtomically(target, Buffer.from(item.content, 'base64'));
      out(
        `Wrote ${target}: ${item.filename}, ${item.type}, ${item.size} bytes, sha256 ${item.sha256}\n`,
      );
      return EXIT.ok;
    }),
  );
}
