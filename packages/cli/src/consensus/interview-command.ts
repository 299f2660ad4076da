import { basename } from 'node:path';
import {
  attributeCatalog,
  draftSheet,
  draftToDict,
  type Interview,
  pyDumps,
  readAnswers,
  recordAnswer,
  type SheetDraft,
  startInterview,
} from '@parley/consensus';
import type { ModelFlags } from '@parley/models';
import type { CliContext } from '../cli-context.js';
import { CliError, EXIT, type ExitCode } from '../cli-error.js';
import { readPyJsonFile } from '../text-file.js';
import { draftLines } from './draft-view.js';
import {
  defaultPartyFile,
  elicitStep,
  nextStepHint,
  writeDraftFile,
  writePartyFile,
} from './elicit-output.js';
import { chooseElicitor } from './elicitor-choice.js';
import { askPrompts, reviewAtTerminal } from './interview-terminal.js';
import { LineReader } from './line-reader.js';
import { readOptionsFile } from './options-file.js';

export type InterviewFlags = ModelFlags & {
  party: string;
  options: string;
  answers?: string;
  json?: boolean;
  draftOut?: string;
  out?: string;
  case?: string;
};

/**
 * `parley consensus interview --party NAME --options FILE`: the private interview (parley-consensus
 * 03-private-elicitation). At a terminal it asks the six prompts, shows the draft as numbered
 * rules with the answers they came from, asks each question back, takes drops and fixes, and
 * confirms by the red lines' ids and the version shown, then writes NAME.party.json (0600). With
 * `--answers FILE` it drafts without asking and prints the draft (`--json`: as JSON, without the
 * token); `--draft-out FILE` keeps the draft with its token (0600) for `parley consensus confirm`.
 */
export async function runInterview(
  ctx: CliContext,
  env: NodeJS.ProcessEnv,
  self: readonly string[],
  flags: InterviewFlags,
): Promise<ExitCode> {
  const { title, options } = await readOptionsFile(flags.options);
  const catalog = attributeCatalog(options);
  let interview = await elicitStep(() =>
    startInterview({
      caseId: flags.case ?? title ?? basename(flags.options),
      participant: flags.party,
    }),
  );
  const interactive = flags.answers === undefined;
  if (interactive && flags.json === true) {
    throw new CliError(
      '--json prints a draft made from --answers FILE without asking; at a terminal the interview asks instead, so leave --json out or pass --answers',
    );
  }
  if (interactive && !(process.stdin.isTTY === true && process.stdout.isTTY === true)) {
    throw new CliError(
      'parley consensus interview asks its questions at a terminal; without one, pass --answers FILE (a JSON object of prompt id -> your words)',
    );
  }
  const elicitor = chooseElicitor(ctx, flags, env);
  if (!interactive) {
    const answers = await elicitStep(
      async () => readAnswers(await readPyJsonFile(flags.answers as string)),
      `${flags.answers}: `,
    );
    for (const [id, text] of Object.entries(answers)) interview = recordAnswer(interview, id, text);
    const draft = await elicitStep(() => draftSheet(interview, elicitor, { options }));
    if (flags.draftOut !== undefined) writeDraftFile(flags.draftOut, draft);
    if (flags.json === true) {
      ctx.out(`${pyDumps(draftToDict(draft, { withToken: false }), { indent: 2 })}\n`);
    } else {
      ctx.out(`${draftLines(draft, options).join('\n')}\n`);
    }
    ctx.err(confirmHint(self, flags, draft));
    return EXIT.ok;
  }
  return atTerminal(ctx, self, flags, interview, elicitor, { options, catalog });
}

async function atTerminal(
  ctx: CliContext,
  self: readonly string[],
  flags: InterviewFlags,
  interview: Interview,
  elicitor: ReturnType<typeof chooseElicitor>,
  context: {
    options: Parameters<typeof draftSheet>[2]['options'];
    catalog: ReturnType<typeof attributeCatalog>;
  },
): Promise<ExitCode> {
  const reader = new LineReader();
  try {
    ctx.out(`Private interview for ${interview.participant}: ${interview.caseId}\n`);
    const answered = await askPrompts(ctx, reader, interview);
    if (answered === null) return stopped(ctx);
    ctx.err(`\ndrafting your sheet with ${elicitor.label}…\n`);
    const draft = await elicitStep(() =>
      draftSheet(answered, elicitor, { options: context.options }),
    );
    const outcome = await elicitStep(() => reviewAtTerminal(ctx, reader, draft, context));
    const kept = outcome.draft;
    if (flags.draftOut !== undefined && kept !== null) writeDraftFile(flags.draftOut, kept);
    if (outcome.kind === 'stopped') return stopped(ctx);
    writePartyFile(
      ctx,
      flags.out ?? defaultPartyFile(outcome.sheet.participant),
      outcome.sheet,
      self,
    );
    return EXIT.ok;
  } finally {
    reader.close();
  }
}

function stopped(ctx: CliContext): ExitCode {
  ctx.out('\nstopped: nothing was confirmed, and no party file was written\n');
  return EXIT.error;
}

/** What to run next after `--answers`: keep the draft, answer its questions, confirm it. */
function confirmHint(self: readonly string[], flags: InterviewFlags, draft: SheetDraft): string {
  if (flags.draftOut === undefined) {
    return 'nothing is confirmed: keep the draft with --draft-out FILE, then confirm it with parley consensus confirm\n';
  }
  const next = nextStepHint(self, {
    draftFile: flags.draftOut,
    optionsFile: flags.options,
    partyFile: flags.out ?? defaultPartyFile(draft.participant),
    draft,
  });
  return `kept the draft in ${flags.draftOut} (mode 0600, with its token). ${next}`;
}
