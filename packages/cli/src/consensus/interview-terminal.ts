import {
  type AttributeCatalog,
  type ConfirmedSheet,
  confirmSheet,
  ElicitError,
  type Interview,
  PROMPTS,
  recordAnswer,
  reviseSheet,
  ruleExamples,
  type SheetDraft,
} from '@parley/consensus';
import type { CliContext } from '../cli-context.js';
import { changeFor, readChangeWords } from './draft-changes.js';
import { draftLines } from './draft-view.js';
import type { LineReader } from './line-reader.js';

/** What the person did at the terminal: a confirmed sheet, or stopped (nothing binds). */
export type TerminalOutcome =
  | { readonly kind: 'confirmed'; readonly sheet: ConfirmedSheet; readonly draft: SheetDraft }
  | { readonly kind: 'stopped'; readonly draft: SheetDraft | null };

/** The six prompts, one at a time; Enter skips one. Null when input ended. */
export async function askPrompts(
  ctx: CliContext,
  reader: LineReader,
  interview: Interview,
): Promise<Interview | null> {
  ctx.out(
    'Answer in your own words; press Enter to skip a question. Nothing binds until you confirm.\n',
  );
  let current = interview;
  for (const [i, prompt] of PROMPTS.entries()) {
    const line = await reader.ask(`\n${i + 1}/${PROMPTS.length} ${prompt.question}\n> `);
    if (line === null) return null;
    try {
      current = recordAnswer(current, prompt.id, line);
    } catch (error) {
      if (!(error instanceof ElicitError)) throw error;
      ctx.out(`${error.message}; skipped\n`);
    }
  }
  return current;
}

/**
 * The review: the draft as numbered rules, its questions answered one by one, then drops and
 * fixes until the person is done, then confirmation by typing every red line's id. The version
 * confirmed is the one last shown.
 */
export async function reviewAtTerminal(
  ctx: CliContext,
  reader: LineReader,
  first: SheetDraft,
  options: {
    readonly options: Parameters<typeof reviseSheet>[2]['options'];
    readonly catalog: AttributeCatalog;
  },
): Promise<TerminalOutcome> {
  let draft = first;
  const revise = (change: ReturnType<typeof changeFor>): void => {
    draft = reviseSheet(
      draft,
      { participant: draft.participant, token: draft.token, ops: [change] },
      options,
    );
  };
  const show = (): void => ctx.out(`\n${draftLines(draft, options.options).join('\n')}\n`);
  // Examples in the case's own attributes: never one the options do not have.
  const examples = ruleExamples(options.catalog).join(', ');
  if (draft.clarifications.length > 0) show();
  while (draft.clarifications.length > 0) {
    const question = draft.clarifications[0] as SheetDraft['clarifications'][number];
    const line = await reader.ask(
      `\n${question.id}: answer with a rule (like ${examples}), or "skip"\n> `,
    );
    if (line === null) return { kind: 'stopped', draft };
    try {
      revise(
        changeFor(
          { verb: 'answer', id: question.id, rule: line === '' ? 'skip' : line },
          draft,
          options.catalog,
        ),
      );
    } catch (error) {
      if (!(error instanceof ElicitError)) throw error;
      ctx.out(`${error.message}\n`);
    }
  }
  for (;;) {
    show();
    const line = await reader.ask(
      `\nChange anything? "drop ID", "fix ID RULE" or "add RULE" (a RULE is like ${examples}); Enter when it is right\n> `,
    );
    if (line === null) return { kind: 'stopped', draft };
    if (line === '') break;
    const words = readChangeWords(line);
    if (words === null) {
      ctx.out('say "drop ID", "fix ID RULE" or "add RULE", or press Enter\n');
      continue;
    }
    try {
      revise(changeFor(words, draft, options.catalog));
    } catch (error) {
      if (!(error instanceof ElicitError)) throw error;
      ctx.out(`${error.message}\n`);
    }
  }
  const ids = draft.hard.map((h) => h.id);
  for (;;) {
    const asked =
      ids.length === 0
        ? `\nNo red lines. Type "confirm" to keep these preferences as your sheet (version ${draft.version.slice(0, 12)}), or "no" to stop\n> `
        : `\nTo confirm, type the id of every red line (${ids.join(', ')}), or "no" to stop\n> `;
    const line = await reader.ask(asked);
    if (line === null || /^(no|n|stop)$/i.test(line)) return { kind: 'stopped', draft };
    const typed =
      ids.length === 0 && /^confirm$/i.test(line) ? [] : line.split(/[\s,]+/).filter(Boolean);
    try {
      const sheet = confirmSheet(draft, {
        participant: draft.participant,
        token: draft.token,
        hard: typed,
        version: draft.version,
      });
      return { kind: 'confirmed', sheet, draft };
    } catch (error) {
      if (!(error instanceof ElicitError)) throw error;
      ctx.out(`${error.message}\n`);
    }
  }
}
