import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import {
  CASES_API_PREFIX,
  CASES_PAGE_PATH,
  CaseError,
  CaseService,
  type CaseStore,
  casesApi,
  renderReceiptPdf,
} from '@parley/cases';
import {
  attributeCatalog,
  ElicitError,
  type PyValue,
  parsePyJson,
  pyDumps,
} from '@parley/consensus';
import type { ModelFlags } from '@parley/models';
import type { Command } from 'commander';
import { type CaseStoreFlags, openCaseStore } from '../cases/case-store-flags.js';
import { type CaseViewShape, caseText, draftOptionsNote, outboxText } from '../cases/case-text.js';
import { registerEvidence } from '../cases/evidence-commands.js';
import { type RuleFlags, ruleChanges } from '../cases/rule-changes.js';
import { CliError, EXIT, type ExitCode } from '../cli-error.js';
import type { Cli } from '../command-kit.js';
import { chooseElicitor } from '../consensus/elicitor-choice.js';
import { MODEL_FLAG_HELP } from '../consensus/model-flags.js';
import { collectEach, collectList } from '../grants/caveat-options.js';
import { addBrowserFlags, type BrowserFlags, browserPolicyFrom } from '../serve/browser-flags.js';
import { untilStopped } from '../serve/until-stopped.js';
import { servePage } from '../start/page-server.js';

/** Where links point when the case is made from the terminal (the page `npm start` serves). */
const DEFAULT_BASE = 'http://127.0.0.1:8080';

type Flags = CaseStoreFlags & { json?: boolean };

function withStore(command: Command): Command {
  return command
    .option('--data <dir>', 'the SQLite data folder (default .parley-data, as npm start)')
    .option('--store <url>', 'keep cases in PostgreSQL (postgres://…) instead; not with --data');
}

/**
 * `parley cases …`: the whole journey of deciding together from a terminal or a script, on the
 * same store the page serves (module 01-10 of the product spec; issue 24). Every command but
 * `new`, `serve`, `delete` and `sweep` is opened by a link, exactly as the page is.
 */
export function registerCases(program: Command, cli: Cli, env: NodeJS.ProcessEnv): void {
  const cases = program
    .command('cases')
    .description('decide together: cases, private links, interviews, one proposal, a receipt');
  const { ctx } = cli;

  /** Runs `work` with a CaseService over the flags' store, closing it after. */
  const run = (
    work: (service: CaseService, flags: Flags & ModelFlags, ...args: string[]) => Promise<ExitCode>,
    elicit = false,
  ) =>
    cli.act(async (...raw: unknown[]) => {
      const command = raw[raw.length - 1] as Command;
      const flags = command.opts() as Flags & ModelFlags;
      const args = raw.slice(0, -2).map(String);
      const store: CaseStore = await openCaseStore(flags, env);
      try {
        const elicitor = elicit ? chooseElicitor(ctx, flags, env) : undefined;
        const service = new CaseService({
          store,
          now: ctx.now,
          ...(elicitor === undefined ? {} : { elicitor }),
        });
        return await work(service, flags, ...args);
      } catch (error) {
        if (error instanceof CaseError) throw new CliError(error.message, EXIT.error);
        // A rule the person typed that does not read as one (parseRule): their input, not ours.
        if (error instanceof ElicitError) throw new CliError(error.message);
        throw error;
      } finally {
        await store.close();
      }
    });

  const show = (view: PyValue, flags: Flags): ExitCode => {
    ctx.out(
      flags.json === true
        ? `${pyDumps(view, { indent: 2 })}\n`
        : caseText(view as unknown as CaseViewShape),
    );
    return EXIT.ok;
  };

  withStore(
    cases
      .command('new')
      .description("open a case: prints the initiator's link and one private link per party")
      .requiredOption('--title <text>', 'the case title')
      .requiredOption('--decision <text>', 'what is decided, in plain words')
      .requiredOption(
        '--options <file>',
        'JSON: a list of options, or {"attributes": {name: [values]}}',
      )
      .requiredOption('--organizer <name>', 'your name, as the initiator')
      .requiredOption('--party <name>', 'a party (repeat: 2 to 5)', collectEach)
      .option('--base <url>', `where the pages are served (default ${DEFAULT_BASE})`)
      .option(
        '--idempotency-key <key>',
        'makes a retry of this command answer with the same case (22+ random base64url characters; default: a fresh one)',
      )
      .option('--json', 'print {case, organizer_link, links}'),
  ).action(
    run(async (service, flags) => {
      const f = flags as Flags & {
        title: string;
        decision: string;
        options: string;
        organizer: string;
        party: string[];
        base?: string;
        idempotencyKey?: string;
      };
      let options: PyValue;
      try {
        options = parsePyJson(readFileSync(f.options, 'utf8'));
      } catch (error) {
        throw new CliError(
          `cannot read the options from ${f.options}: ${error instanceof Error ? error.message : String(error)}`,
        );
      }
      const base = (f.base ?? DEFAULT_BASE).replace(/\/+$/, '');
      // A fresh key per `new` (256 random bits), reused by its own retry: a store error that
      // left it unknown whether the case was made cannot make a second one.
      const key = f.idempotencyKey ?? randomBytes(32).toString('base64url');
      const input = {
        title: f.title,
        decision: f.decision,
        options,
        organizer: f.organizer,
        parties: f.party,
      };
      const made = await service
        .create(input, `${base}${CASES_PAGE_PATH}`, key)
        .catch((error: unknown) => {
          if (error instanceof CaseError && error.code !== 'conflict') throw error;
          return service.create(input, `${base}${CASES_PAGE_PATH}`, key);
        });
      const links = Object.entries(made.links.parties).map(([party, link]) => ({
        party,
        name: made.names[party] ?? '',
        link,
      }));
      if (f.json === true) {
        ctx.out(
          `${pyDumps({ case: made.caseId, organizer_link: made.links.organizer ?? null, links }, { indent: 2 })}\n`,
        );
        return EXIT.ok;
      }
      ctx.out(
        `Opened ${made.caseId}.\n\nYour link as the initiator (keep it; it shows the outbox and can re-issue links):\n  ${made.links.organizer}\n\nHand each party their own link (private; it expires in 72 hours):\n${links
          .map((l) => `  ${l.name}: ${l.link}`)
          .join('\n')}\n`,
      );
      return EXIT.ok;
    }),
  );

  withStore(
    cases
      .command('status')
      .description("what a link's holder sees of the case")
      .argument('<link>')
      .option('--json', 'print the view as JSON'),
  ).action(run(async (service, flags, link) => show(await service.view(link as string), flags)));

  withStore(
    cases
      .command('outbox')
      .description("the messages to hand over, with their links (the initiator's link)")
      .argument('<link>'),
  ).action(
    run(async (service, _flags, link) => {
      const view = (await service.view(link as string)) as unknown as CaseViewShape;
      if (view.outbox === undefined)
        throw new CliError("only the initiator's link shows the outbox", EXIT.error);
      ctx.out(outboxText(view));
      return EXIT.ok;
    }),
  );

  const partyOf = async (service: CaseService, link: string, name: string): Promise<string> => {
    const view = (await service.view(link)) as unknown as CaseViewShape & {
      links?: { party: string; name: string }[];
    };
    const found = view.links?.find((l) => l.name.toLowerCase() === name.toLowerCase());
    if (view.links === undefined)
      throw new CliError("only the initiator's link can do this", EXIT.error);
    if (found === undefined)
      throw new CliError(`no party named ${JSON.stringify(name)} in this case`, EXIT.error);
    return found.party;
  };

  withStore(
    cases
      .command('invite')
      .description("re-issue a party's link (the earlier one stops working)")
      .argument('<link>', "the initiator's link")
      .requiredOption('--party <name>', 'whose link')
      .option('--base <url>', `where the pages are served (default ${DEFAULT_BASE})`),
  ).action(
    run(async (service, flags, link) => {
      const f = flags as Flags & { party: string; base?: string };
      const party = await partyOf(service, link as string, f.party);
      const issued = await service.reissue(
        link as string,
        party,
        `${(f.base ?? DEFAULT_BASE).replace(/\/+$/, '')}${CASES_PAGE_PATH}`,
      );
      ctx.out(
        `New link for ${f.party} (the earlier one no longer opens the case):\n  ${issued.link}\n`,
      );
      return EXIT.ok;
    }),
  );

  withStore(
    cases
      .command('revoke')
      .description("revoke a party's link")
      .argument('<link>', "the initiator's link")
      .requiredOption('--party <name>', 'whose link'),
  ).action(
    run(async (service, flags, link) => {
      const party = await partyOf(service, link as string, (flags as { party: string }).party);
      await service.revoke(link as string, party);
      ctx.out(
        `Revoked. Re-issue with: parley cases invite LINK --party ${JSON.stringify((flags as { party: string }).party)}\n`,
      );
      return EXIT.ok;
    }),
  );

  withStore(
    cases
      .command('answer')
      .description('answer one question of your private interview')
      .argument('<link>')
      .argument(
        '<prompt>',
        'desired_outcome, unacceptable, acceptable_costs, priorities, private_info or fallback',
      )
      .argument('<text>'),
  ).action(
    run(async (service, flags, link, prompt, text) =>
      show(await service.answer(link as string, prompt as string, text), flags),
    ),
  );

  withStore(
    cases
      .command('draft')
      .description('let the model draft your rules from your answers (you review and confirm them)')
      .argument('<link>')
      .option('--provider <name>', MODEL_FLAG_HELP.provider)
      .option('--model <name>', MODEL_FLAG_HELP.model)
      .option('--base-url <url>', MODEL_FLAG_HELP.baseUrl),
  ).action(
    run(async (service, flags, link) => show(await service.draft(link as string), flags), true),
  );

  withStore(
    cases
      .command('rules')
      .description('write or change your rules by hand')
      .argument('<link>')
      .option(
        '--rule <text>',
        'a rule such as "rent <= 1000" or "prefer lower rent 800..1100" (repeatable)',
        collectEach,
      )
      .option(
        '--fix <id=rule>',
        'change item ID of your draft to RULE, e.g. h1="rent <= 950"; a rule of the other kind reclassifies it (repeatable)',
        collectEach,
      )
      .option('--remove <id>', 'take item ID (h1, s2) out of your draft (repeatable)', collectList)
      .option(
        '--resolve <id=rule>',
        'answer open question ID with RULE, e.g. q1="weeks >= 4" (repeatable)',
        collectEach,
      )
      .option('--drop-question <id>', 'drop open question ID unanswered (repeatable)', collectList)
      .option('--ops <json>', 'changes as JSON, as the page sends them'),
  ).action(
    run(async (service, flags, link) => {
      const view = (await service.view(link as string)) as unknown as CaseViewShape;
      const draft = view.you?.draft;
      const ops = ruleChanges(
        flags as RuleFlags,
        attributeCatalog(view.options),
        new Set(draft?.hard.map((h) => h.id)),
      );
      if (ops.length === 0)
        throw new CliError('give --rule, --fix, --remove, --resolve, --drop-question or --ops');
      return show(await service.edit(link as string, ops), flags);
    }),
  );

  withStore(
    cases
      .command('confirm')
      .description('make your draft binding: every red line of the version you read')
      .argument('<link>')
      .option('--version <v>', 'the version of the draft you read (printed with it)'),
  ).action(
    run(async (service, flags, link) => {
      const f = flags as Flags & { version?: string };
      const view = (await service.view(link as string)) as unknown as CaseViewShape;
      const draft = view.you?.draft ?? null;
      if (draft === null)
        throw new CliError(
          'there is no draft to confirm: answer, draft or write rules first',
          EXIT.error,
        );
      if (f.version === undefined) {
        const note = draftOptionsNote(view);
        ctx.out(`${draft.rendered}\n${note === null ? '' : `${note}\n`}`);
        throw new CliError(
          `read your draft above, then confirm it: parley cases confirm LINK --version ${draft.version}`,
        );
      }
      return show(
        await service.confirm(link as string, {
          hard: draft.hard.map((h) => h.id),
          version: f.version,
        }),
        flags,
      );
    }),
  );

  registerEvidence(cases, { withStore, run, show, out: (text) => ctx.out(text) });

  withStore(
    cases
      .command('accept')
      .description('accept the proposal, named by its transcript hash')
      .argument('<link>')
      .requiredOption('--proposal <hash>', 'the transcript hash status prints'),
  ).action(
    run(async (service, flags, link) =>
      show(await service.accept(link as string, (flags as { proposal: string }).proposal), flags),
    ),
  );

  withStore(
    cases
      .command('reject')
      .description('reject the proposal (no reason needed; a note stays private to you)')
      .argument('<link>')
      .requiredOption('--proposal <hash>', 'the transcript hash status prints')
      .option('--note <text>', 'a note for yourself alone'),
  ).action(
    run(async (service, flags, link) => {
      const f = flags as Flags & { proposal: string; note?: string };
      return show(await service.reject(link as string, f.proposal, f.note ?? null), flags);
    }),
  );

  withStore(
    cases
      .command('revise')
      .description('reopen your confirmed rules privately (starts the next round)')
      .argument('<link>'),
  ).action(run(async (service, flags, link) => show(await service.revise(link as string), flags)));

  withStore(
    cases
      .command('close')
      .description('close a round that ended without agreement, with its receipt (initiator)')
      .argument('<link>'),
  ).action(run(async (service, flags, link) => show(await service.close(link as string), flags)));

  withStore(
    cases.command('cancel').description('cancel an unfinished case (initiator)').argument('<link>'),
  ).action(run(async (service, flags, link) => show(await service.cancel(link as string), flags)));

  withStore(
    cases
      .command('receipt')
      .description('the receipt of a finished case: JSON to check with verify-receipt, and a PDF')
      .argument('<link>')
      .option('--out <file>', 'write the receipt JSON here (default: print it)')
      .option('--pdf <file>', 'also write the PDF here'),
  ).action(
    run(async (service, flags, link) => {
      const f = flags as Flags & { out?: string; pdf?: string };
      const receipt = await service.receipt(link as string);
      if (f.out === undefined) ctx.out(receipt.text);
      else writeFileSync(f.out, receipt.text);
      if (f.pdf !== undefined) writeFileSync(f.pdf, await renderReceiptPdf(receipt.text));
      if (f.out !== undefined)
        ctx.err(
          `wrote ${f.out}${f.pdf === undefined ? '' : ` and ${f.pdf}`}; check it with: parley verify-receipt ${f.out}\n`,
        );
      return EXIT.ok;
    }),
  );

  withStore(
    cases
      .command('delete')
      .description("delete a case and everything of it (its id, or the initiator's link)")
      .argument('<case>'),
  ).action(
    run(async (service, _flags, target) => {
      const id = target as string;
      if (/^case_[A-Za-z0-9_-]+$/.test(id)) {
        if (!(await service.delete(id))) throw new CliError(`no case ${id}`, EXIT.error);
      } else {
        await service.deleteByOrganizer(id);
      }
      ctx.out('Deleted: nothing of the case is left in the store.\n');
      return EXIT.ok;
    }),
  );

  withStore(
    cases
      .command('sweep')
      .description('delete the cases whose retention ended (30 days unfinished, 90 finished)'),
  ).action(
    run(async (service) => {
      const gone = await service.sweep();
      ctx.out(
        gone.length === 0
          ? 'No case has expired.\n'
          : `Deleted ${gone.length}: ${gone.join(', ')}\n`,
      );
      return EXIT.ok;
    }),
  );

  addBrowserFlags(
    withStore(
      cases
        .command('serve')
        .description('serve the cases pages and API alone')
        .option('--host <host>', 'listen address', '127.0.0.1')
        .option('--port <port>', 'port (0: a free one)', '8080')
        .option('--page <dir>', 'the built page (default apps/playground/dist when it exists)')
        .option('--provider <name>', `the interview's model: ${MODEL_FLAG_HELP.provider}`)
        .option('--model <name>', MODEL_FLAG_HELP.model)
        .option('--base-url <url>', MODEL_FLAG_HELP.baseUrl),
    ),
  ).action(
    cli.act(
      async (
        flags: Flags & ModelFlags & BrowserFlags & { host: string; port: string; page?: string },
      ) => {
        const browser = browserPolicyFrom(flags);
        const port = Number(flags.port);
        if (!Number.isInteger(port) || port < 0 || port > 65_535)
          throw new CliError('--port must be 0 to 65535');
        const page = resolve(flags.page ?? join('apps', 'playground', 'dist'));
        const folder = existsSync(join(page, 'index.html')) ? page : null;
        if (flags.page !== undefined && folder === null)
          throw new CliError(`the page is not built: ${join(page, 'index.html')} is missing`);
        const store = await openCaseStore(flags, env);
        const named =
          flags.provider !== undefined || flags.model !== undefined || flags.baseUrl !== undefined;
        const elicitor = named ? chooseElicitor(ctx, flags, env) : undefined;
        const log = (line: string): void => ctx.err(`${line}\n`);
        const service = new CaseService({
          store,
          now: ctx.now,
          ...(elicitor === undefined ? {} : { elicitor }),
        });
        const server = await servePage({
          host: flags.host,
          port,
          folder,
          mounts: {},
          prefixes: { [CASES_API_PREFIX]: casesApi(service, log) },
          ...(browser.allowedHosts === undefined
            ? {}
            : { browser: { allowedHosts: browser.allowedHosts } }),
          onError: (error) =>
            log(`[cases] ${error instanceof Error ? error.message : String(error)}`),
        }).catch(async (error: unknown) => {
          await store.close();
          throw error;
        });
        ctx.out(
          `listening ${server.origin} (cases at ${server.origin}${CASES_PAGE_PATH}${folder === null ? '; API only, the page is not built' : ''})\n`,
        );
        await untilStopped([server, { close: () => store.close() }]);
        ctx.err('stopped\n');
        return EXIT.ok;
      },
    ),
  );
}
