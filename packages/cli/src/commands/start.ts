import { join, relative, resolve } from 'node:path';
import { CALENDAR_ID } from '@parley/examples/calendar';
import { SHOP_ID } from '@parley/examples/shop';
import { publicKeyString } from '@parley/protocol';
import type { Command } from 'commander';
import { EXIT } from '../cli-error.js';
import type { Cli } from '../command-kit.js';
import { initKeys, loadPrincipal } from '../home/local-keys.js';
import { ensureFolder } from '../home/parley-home.js';
import { addBrowserFlags, type BrowserFlags, browserPolicyFrom } from '../serve/browser-flags.js';
import { runExample, untilStopped } from '../serve/run-example.js';
import { ensureDemoGrant } from '../start/demo-grant.js';
import { sessionText } from '../start/session-text.js';
import { HTTP_PATH } from './serve.js';

/** The fixed ports of `npm start` (documented in the README). */
export const START_PORTS = {
  calendar: 7447,
  calendarHttp: 8447,
  shop: 7449,
  shopHttp: 8449,
} as const;
const HOST = '127.0.0.1';

type StartFlags = BrowserFlags & { data: string; ephemeral?: boolean };

/**
 * `parley start` (what `npm start` runs): creates the local keys if missing, gives the local
 * agent a grant for both example services (30.00 USD per order without asking), serves calendar
 * and shop on 127.0.0.1 over TCP and the HTTP bridge, prints a session to paste, and runs until
 * Ctrl-C or SIGTERM. Keys live in DIR/home unless PARLEY_HOME is set.
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
    .option('--ephemeral', 'listen on free ports instead of the fixed ones (for tests)');
  addBrowserFlags(command).action(
    cli.act(async (flags: StartFlags) => {
      const { ctx } = cli;
      const browser = browserPolicyFrom(flags);
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
      const port = (fixed: number): number => (flags.ephemeral === true ? 0 : fixed);
      const trust = [publicKeyString(principal)];
      const log = (line: string): void => ctx.err(`${line}\n`);
      const calendar = await runExample('calendar', {
        store: join(data, 'calendar'),
        trust,
        log,
        endpoints: [
          { url: `parley://${HOST}:${port(START_PORTS.calendar)}` },
          { url: `http://${HOST}:${port(START_PORTS.calendarHttp)}${HTTP_PATH}`, browser },
        ],
      });
      const shop = await runExample('shop', {
        store: join(data, 'shop'),
        trust,
        log,
        endpoints: [
          { url: `parley://${HOST}:${port(START_PORTS.shop)}` },
          { url: `http://${HOST}:${port(START_PORTS.shopHttp)}${HTTP_PATH}`, browser },
        ],
      }).catch(async (error: unknown) => {
        await calendar.close();
        throw error;
      });
      for (const running of [calendar, shop]) {
        for (const server of running.servers)
          ctx.out(`listening ${server.address} (${running.name})\n`);
      }
      const [calendarTcp, calendarHttp] = calendar.servers.map((s) => s.address);
      const [shopTcp, shopHttp] = shop.servers.map((s) => s.address);
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
            ctx.now(),
          ),
      );
      await untilStopped([calendar, shop]);
      ctx.err('stopped\n');
      return EXIT.ok;
    }),
  );
}

/** A path relative to the working folder when it is inside it, else absolute. */
function shortPath(path: string): string {
  const inside = relative(process.cwd(), path);
  return inside === '' ? '.' : inside.startsWith('..') ? path : inside;
}
