import { existsSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import {
  CASES_API_PREFIX,
  CASES_PAGE_PATH,
  CaseService,
  type CaseStore,
  casesApi,
} from '@parley/cases';
import type { Elicitor } from '@parley/consensus';
import { CALENDAR_ID } from '@parley/examples/calendar';
import { SHOP_ID } from '@parley/examples/shop';
import { type ModelFlags, ScriptedElicitor } from '@parley/models';
import { publicKeyString } from '@parley/protocol';
import { allProbes, createHttpBridge } from '@parley/transport';
import type { Command } from 'commander';
import { openCaseStore } from '../cases/case-store-flags.js';
import type { CliContext } from '../cli-context.js';
import { CliError, EXIT } from '../cli-error.js';
import type { Cli } from '../command-kit.js';
import { chooseElicitor } from '../consensus/elicitor-choice.js';
import { MODEL_FLAG_HELP } from '../consensus/model-flags.js';
import { initKeys, loadPrincipal } from '../home/local-keys.js';
import { ensureFolder } from '../home/parley-home.js';
import { loadServiceKey, serviceKeyPath } from '../home/service-key.js';
import { addBrowserFlags, type BrowserFlags, browserPolicyFrom } from '../serve/browser-flags.js';
import { runExample } from '../serve/run-example.js';
import type { RunningService } from '../serve/run-service.js';
import { untilStopped } from '../serve/until-stopped.js';
import { ensureDemoGrant } from '../start/demo-grant.js';
import { ELICIT_PATH, elicitEndpoint } from '../start/elicit-endpoint.js';
import {
  DEFAULT_START_HOST,
  listensEverywhere,
  parseListenHost,
  reachableUrl,
} from '../start/listen-address.js';
import { type PageServer, servePage } from '../start/page-server.js';
import { MAX_WRONG_CODES, PairingCode } from '../start/pairing-code.js';
import { PAIRING_PATH, pairingEndpoint } from '../start/pairing-endpoint.js';
import { sessionText } from '../start/session-text.js';
import { addOpsFlags, type OpsFlags, startOps } from '../start/start-ops.js';
import { TrustedPrincipals } from '../start/trusted-principals.js';
import { HTTP_PATH } from './serve.js';

/** The fixed ports of `npm start` (documented in the README). */
export const START_PORTS = {
  calendar: 7447,
  calendarHttp: 8447,
  shop: 7449,
  shopHttp: 8449,
  page: 8080,
} as const;
/** Where the page finds each service's bridge, on its own origin. */
const PAGE_BRIDGES = { calendar: '/calendar/parley', shop: '/shop/parley' } as const;

type StartFlags = BrowserFlags &
  ModelFlags &
  OpsFlags & {
    data: string;
    host: string;
    ephemeral?: boolean;
    page?: string;
    casesStore?: string;
  };

/**
 * `parley start` (what `npm start` runs): creates the local keys if missing, gives the local
 * agent a grant for both example services (30.00 USD per order without asking), serves calendar
 * and shop on 127.0.0.1 (or --host) over TCP and the HTTP bridge, prints a session to paste, and
 * runs until Ctrl-C or SIGTERM. Keys live in DIR/home unless PARLEY_HOME is set.
 */
export function registerStart(program: Command, cli: Cli, env: NodeJS.ProcessEnv): void {
  const command = program
    .command('start')
    .description(
      'serve calendar and shop locally with keys and a grant, and print a session to try',
    )
    .option(
      '--data <dir>',
      'state folder: SQLite data, and keys unless PARLEY_HOME is set',
      '.parley-data',
    )
    .option(
      '--page <dir>',
      'serve this built page (apps/playground/dist) on port 8080, with both services and a pairing step on its origin',
    )
    .option(
      '--host <address>',
      'listen on this IPv4 address: 0.0.0.0 for every interface (a container); names other than IP addresses and localhost then need --allow-host',
      DEFAULT_START_HOST,
    )
    .option('--ephemeral', 'listen on free ports instead of the fixed ones (for tests)')
    .option(
      '--cases-store <url>',
      'keep the cases of /cases in PostgreSQL (postgres://…) instead of DIR/cases, so several instances share them',
    )
    .option('--provider <name>', `the page's interview model: ${MODEL_FLAG_HELP.provider}`)
    .option('--model <name>', MODEL_FLAG_HELP.model)
    .option('--base-url <url>', MODEL_FLAG_HELP.baseUrl);
  addOpsFlags(command);
  addBrowserFlags(command).action(
    cli.act(async (flags: StartFlags) => {
      const { ctx } = cli;
      const browser = browserPolicyFrom(flags);
      const host = parseListenHost(flags.host);
      const data = resolve(flags.data);
      ensureFolder(data);
      const home =
        env.PARLEY_HOME !== undefined && env.PARLEY_HOME !== '' ? ctx.home : join(data, 'home');
      const keys = await initKeys(home, { ifMissing: true });
      if (keys.created.length > 0) ctx.out(`created the local keys in ${shortPath(home)}\n`);
      const principal = await loadPrincipal(home);
      const issued = await ensureDemoGrant(
        home,
        principal,
        keys.agent,
        [
          { id: CALENDAR_ID, can: 'calendar.*' },
          { id: SHOP_ID, can: 'shop.*' },
        ],
        ctx.now(),
      );
      if (issued)
        ctx.out(
          'gave the local agent a grant for both services (30.00 USD per order without asking)\n',
        );
      const page = flags.page === undefined ? undefined : resolve(flags.page);
      if (page !== undefined && !existsSync(join(page, 'index.html'))) {
        throw new CliError(
          `the page is not built (${join(shortPath(page), 'index.html')} is missing): run npm run build`,
        );
      }
      // The interview's model: its key stays here, the page only calls /elicit.
      const elicitor = page === undefined ? undefined : pageElicitor(ctx, flags, env);
      const port = (fixed: number): number => (flags.ephemeral === true ? 0 : fixed);
      // §6.4: the local principal, and the principals of pages paired before (and from now on).
      const trust = TrustedPrincipals.load(publicKeyString(principal), data);
      const ops = startOps(flags, (line) => ctx.err(line));
      const log = ops.log.message;
      // docs/extensions.md §E1: each service signs its receipts with its own key, so the page
      // can say who signed.
      const signing = async (folder: string) => (await loadServiceKey(serviceKeyPath(folder))).key;
      const calendar = await runExample('calendar', {
        store: join(data, 'calendar'),
        trust,
        log,
        observe: ops.observe,
        receiptKey: await signing(join(data, 'calendar')),
        revocation: true,
        approvals: true,
        audit: true,
        endpoints: [
          { url: `parley://${host}:${port(START_PORTS.calendar)}` },
          { url: `http://${host}:${port(START_PORTS.calendarHttp)}${HTTP_PATH}`, browser },
        ],
      });
      const shop = await runExample('shop', {
        store: join(data, 'shop'),
        trust,
        log,
        observe: ops.observe,
        receiptKey: await signing(join(data, 'shop')),
        revocation: true,
        approvals: true,
        audit: true,
        endpoints: [
          { url: `parley://${host}:${port(START_PORTS.shop)}` },
          { url: `http://${host}:${port(START_PORTS.shopHttp)}${HTTP_PATH}`, browser },
        ],
      }).catch(async (error: unknown) => {
        await calendar.close();
        throw error;
      });
      for (const running of [calendar, shop]) {
        for (const server of running.servers)
          ctx.out(`listening ${server.address} (${running.name})\n`);
      }
      let pageServer: PageServer | undefined;
      let pairing: PairingCode | undefined;
      let caseStore: CaseStore | undefined;
      if (page !== undefined && elicitor !== undefined) {
        // Cases (issue 24): SQLite in DIR/cases, the key in HOME/cases.key; or --cases-store.
        caseStore = await openCaseStore(
          flags.casesStore === undefined ? { data } : { store: flags.casesStore },
          env.PARLEY_HOME !== undefined && env.PARLEY_HOME !== ''
            ? env
            : { ...env, PARLEY_HOME: home },
        );
        const cases = new CaseService({ store: caseStore, now: ctx.now, elicitor });
        const code = new PairingCode((next) =>
          ctx.out(
            `${MAX_WRONG_CODES} wrong pairing codes were tried, so the code is now ${next}\n`,
          ),
        );
        pairing = code;
        const paired = (key: string): void =>
          ctx.out(
            `paired a page: the services trust its principal ${key} from now on (pairing code for another browser: ${code.current})\n`,
          );
        pageServer = await servePage({
          host,
          port: port(START_PORTS.page),
          folder: page,
          ready: allProbes([calendar.ready, shop.ready]),
          mounts: {
            ...pageBridges(calendar, shop, browser.allowedHosts, log),
            [PAIRING_PATH]: pairingEndpoint(trust, code, ctx.now, paired),
            [ELICIT_PATH]: elicitEndpoint(elicitor, !(elicitor instanceof ScriptedElicitor), log),
          },
          prefixes: { [CASES_API_PREFIX]: casesApi(cases, log) },
          ...(browser.allowedHosts === undefined
            ? {}
            : { browser: { allowedHosts: browser.allowedHosts } }),
          onError: (error) =>
            log(`[page] ${error instanceof Error ? error.message : String(error)}`),
        }).catch(async (error: unknown) => {
          await Promise.all([calendar.close(), shop.close(), caseStore?.close()]);
          throw error;
        });
        ctx.out(
          `listening ${pageServer.origin} (page; the bridges at ${PAGE_BRIDGES.calendar} and ${PAGE_BRIDGES.shop}; cases at ${CASES_PAGE_PATH})\n`,
        );
      }
      const [calendarTcp, calendarHttp] = calendar.servers.map((s) => reachableUrl(s.address));
      const [shopTcp, shopHttp] = shop.servers.map((s) => reachableUrl(s.address));
      if (pageServer !== undefined && pairing !== undefined) {
        ctx.out(
          `\nOpen ${reachableUrl(pageServer.origin)} in a browser: be the agent and the principal against both services, and run the consensus demo.\n` +
            (listensEverywhere(host)
              ? 'From elsewhere, or where a container publishes the port, use that address instead (a host name other than localhost needs --allow-host NAME).\n'
              : '') +
            `Pairing code for the page: ${pairing.current} (asked once, so the services trust the page's principal key)\n`,
        );
        if (trust.paired.length > 0) {
          ctx.out(
            `${trust.paired.length} paired page principal${trust.paired.length === 1 ? ' is' : 's are'} trusted (forget them: delete ${shortPath(trust.path)})\n`,
          );
        }
      }
      ctx.out(
        `\nState in ${shortPath(data)}, keys in ${shortPath(home)}. Ctrl-C stops.\n\n` +
          sessionText(
            {
              calendar: calendarTcp ?? '',
              calendarHttp: calendarHttp ?? '',
              shop: shopTcp ?? '',
              shopHttp: shopHttp ?? '',
            },
            home,
            ['npx', 'parley'],
          ),
      );
      const metrics = await ops.serveMetrics([calendar, shop]).catch(async (error: unknown) => {
        await Promise.all([
          pageServer?.close(),
          calendar.close(),
          shop.close(),
          caseStore?.close(),
        ]);
        throw error;
      });
      if (metrics !== undefined) ctx.out(`metrics ${metrics.address} (calendar, shop)\n`);
      const store = caseStore;
      await untilStopped([
        ...(pageServer === undefined ? [] : [pageServer]),
        calendar,
        shop,
        ...(metrics === undefined ? [] : [metrics]),
        ...(store === undefined ? [] : [{ close: () => store.close() }]),
      ]);
      ctx.err('stopped\n');
      return EXIT.ok;
    }),
  );
}

/** The services' HTTP bridges at their paths on the page's origin. */
function pageBridges(
  calendar: RunningService,
  shop: RunningService,
  allowedHosts: readonly string[] | undefined,
  log: (line: string) => void,
) {
  const bridge = (running: RunningService, path: string) =>
    createHttpBridge(running.handler, {
      path,
      ...(allowedHosts === undefined ? {} : { allowedHosts }),
      onError: (error) =>
        log(
          `[${running.name}] page bridge: ${error instanceof Error ? error.message : String(error)}`,
        ),
    });
  return {
    [PAGE_BRIDGES.calendar]: bridge(calendar, PAGE_BRIDGES.calendar),
    [PAGE_BRIDGES.shop]: bridge(shop, PAGE_BRIDGES.shop),
  };
}

/** A path relative to the working folder when it is inside it, else absolute. */
function shortPath(path: string): string {
  const inside = relative(process.cwd(), path);
  return inside === '' ? '.' : inside.startsWith('..') ? path : inside;
}

/**
 * The page's interview model. Named by flags, a bad choice stops `start`; picked up from the
 * environment alone (an OPENAI_BASE_URL without a model name, say), it only costs the page its
 * model: `npm start` still starts, with the scripted elicitor, and says why.
 */
function pageElicitor(ctx: CliContext, flags: ModelFlags, env: NodeJS.ProcessEnv): Elicitor {
  const named =
    flags.provider !== undefined || flags.model !== undefined || flags.baseUrl !== undefined;
  try {
    return chooseElicitor(ctx, flags, env);
  } catch (error) {
    if (named || !(error instanceof CliError)) throw error;
    ctx.err(
      `the interview's model is not usable (${error.message}); the page drafts with the scripted elicitor\n`,
    );
    return new ScriptedElicitor();
  }
}
