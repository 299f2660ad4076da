import { resolve } from 'node:path';
import { hostPortText } from '@parley/transport';
import type { Command } from 'commander';
import { modeOf } from '../atomic-file.js';
import { CliError, EXIT } from '../cli-error.js';
import type { Cli } from '../command-kit.js';
import { describeHome } from '../home/describe-home.js';
import { keyFileExists } from '../home/key-file.js';
import { keyPath } from '../home/local-keys.js';
import { mcpToken } from '../home/mcp-token-file.js';
import { hostPortFlag } from '../serve/host-port.js';
import { removeFromHostFile, setUpHostFile } from '../setup/host-config-file.js';
import { hostConfigFormat } from '../setup/host-config-format.js';
import { DEFAULT_SERVICES, ENTRY_NAMES, MCP_HTTP_PATH, parleyEntries } from '../setup/mcp-entry.js';
import { findHost, HOSTS, hostEnvironment, MCP_HOSTS, type McpHost } from '../setup/mcp-hosts.js';
import { commandLine } from '../shell-quote.js';

type SetupFlags = {
  services?: string[];
  consensus?: boolean;
  project?: string;
  remove?: boolean;
  http?: string;
  tokenFile?: string;
};

/** A bridge the person runs with `parley mcp --http`: where hosts reach it, and its token. */
type HttpBridge = { address: string; url: string; token: string; tokenFile: string };

/**
 * `parley setup HOST [--services URL…] [--consensus] [--project DIR]`: writes the MCP host's own
 * config entry for `parley mcp` (and `parley consensus-mcp`), run by this Node and this CLI by
 * absolute path with this PARLEY_HOME, so it starts as written. With `--http HOST:PORT` the
 * entry reaches a bridge the person runs (`parley mcp --http HOST:PORT`) by URL, with the home's
 * bearer token in the headers, and the file becomes the owner's alone. Idempotent; the file's
 * original bytes are kept beside it, and `parley setup --remove HOST` puts them back.
 */
export function registerSetup(program: Command, cli: Cli): void {
  program
    .command('setup')
    .description(`add the parley MCP servers to an MCP host's config: ${MCP_HOSTS.join(', ')}`)
    .argument('[host]', 'the host; without it, lists the hosts and their config files')
    .option(
      '--services <urls...>',
      `the services for parley mcp (default ${DEFAULT_SERVICES.join(' ')})`,
    )
    .option('--consensus', 'also add parley consensus-mcp (the consensus tools)')
    .option('--project <dir>', "write the project's file in DIR instead of the user's")
    .option('--remove', 'take the parley entries out again (the original file comes back)')
    .option(
      '--http <host:port>',
      'reach the bridge you run with `parley mcp --http HOST:PORT` by URL and bearer token, instead of a stdio command',
    )
    .option(
      '--token-file <file>',
      'with --http: the token file that bridge runs with (default PARLEY_HOME/mcp-token)',
    )
    .action(
      cli.act(async (hostName: string | undefined, flags: SetupFlags) => {
        if (hostName === undefined) return listHosts(cli, flags);
        const host = findHost(hostName);
        if (host === undefined) {
          throw new CliError(
            `"${hostName}" is not a host parley can set up; use one of ${MCP_HOSTS.join(', ')}`,
          );
        }
        const file = hostFile(host, flags.project);
        const format = hostConfigFormat(host.format, file);
        const names = Object.values(ENTRY_NAMES);
        if (flags.remove === true) return remove(cli, host, file, format, names);
        const services = flags.services ?? [...DEFAULT_SERVICES];
        const http = httpBridge(cli, host, flags);
        const entries = parleyEntries({
          services,
          consensus: flags.consensus === true,
          home: cli.ctx.home,
          ...(http === undefined ? {} : { http: { url: http.url, token: http.token } }),
        });
        const outcome = setUpHostFile(cli.ctx.home, file, format, entries);
        const what = Object.keys(entries).join(' and ');
        if (outcome.kind === 'unchanged') {
          cli.ctx.out(`${host.name}: ${file} already has ${what} as set up; nothing changed\n`);
        } else {
          const kept = outcome.backup === null ? '' : ` (the file as it was: ${outcome.backup})`;
          cli.ctx.out(`${host.name}: wrote ${what} to ${file}${kept}\n`);
        }
        cli.ctx.err(
          [
            ...(http === undefined
              ? [
                  `  parley mcp ${services.join(' ')}, with the keys and grants of ${describeHome(cli.ctx)}`,
                ]
              : [
                  `  ${http.url}, with the bearer token in ${http.tokenFile}; ${privacyOf(file)}`,
                  `  run the bridge, with the keys and grants of ${describeHome(cli.ctx)}: ${commandLine([...cli.self, 'mcp', '--http', http.address, ...tokenFileArgs(flags), ...services])}`,
                  `  whoever can read ${http.tokenFile} or ${file} can spend what those grants allow through it`,
                ]),
            ...(keyFileExists(keyPath(cli.ctx.home, 'agent'))
              ? []
              : [
                  `  note: there is no agent key in that home yet, so the bridge will not start: run \`npm start\` (which makes one) or ${commandLine([...cli.self, 'keys', 'init'])}`,
                ]),
            `  restart ${host.name} to load it; check everything with: ${commandLine([...cli.self, 'doctor'])}`,
            `  undo with: ${commandLine([...cli.self, 'setup', '--remove', host.id, ...(flags.project === undefined ? [] : ['--project', flags.project])])}`,
            '',
          ].join('\n'),
        );
        return EXIT.ok;
      }),
    );
}

/** `--http HOST:PORT`: the URL and token of the bridge the person runs; undefined for stdio. */
function httpBridge(cli: Cli, host: McpHost, flags: SetupFlags): HttpBridge | undefined {
  if (flags.http === undefined) {
    if (flags.tokenFile !== undefined)
      throw new CliError('--token-file goes with --http HOST:PORT');
    return undefined;
  }
  if (host.format.kind === 'json' && host.format.http === null) {
    throw new CliError(
      `${host.name} takes only local (stdio) servers in its config file; leave out --http, and it starts the bridge itself`,
    );
  }
  const where = hostPortFlag(flags.http, '--http');
  if (where.port === 0) {
    throw new CliError('--http needs the port `parley mcp --http` listens on, not 0');
  }
  const address = hostPortText(where);
  const { token, file } = mcpToken(cli.ctx.home, flags.tokenFile);
  return { address, url: `http://${address}${MCP_HTTP_PATH}`, token, tokenFile: file };
}

/** Whether others can read a file that holds the token, and the fix if they can. */
function privacyOf(file: string): string {
  const mode = modeOf(file) ?? 0;
  return (mode & 0o077) === 0
    ? `${file} is readable by you alone`
    : `others can read ${file} (mode ${(mode & 0o777).toString(8)}): run chmod 600 ${file}`;
}

function tokenFileArgs(flags: SetupFlags): string[] {
  return flags.tokenFile === undefined ? [] : ['--token-file', flags.tokenFile];
}

/** The host's user file, or its project file in `project`. */
export function hostFile(host: McpHost, project: string | undefined): string {
  if (project === undefined) return host.userFile(hostEnvironment());
  if (host.projectFile === undefined) {
    throw new CliError(`${host.name} has no project config file; leave out --project`);
  }
  return host.projectFile(resolve(project));
}

function remove(
  cli: Cli,
  host: McpHost,
  file: string,
  format: ReturnType<typeof hostConfigFormat>,
  names: readonly string[],
) {
  const outcome = removeFromHostFile(cli.ctx.home, file, format, names);
  switch (outcome.kind) {
    case 'restored':
      cli.ctx.out(
        outcome.existed
          ? `${host.name}: restored ${file} as it was before parley setup, byte for byte\n`
          : `${host.name}: removed ${file}, which parley setup had created\n`,
      );
      break;
    case 'entries-removed':
      cli.ctx.out(
        `${host.name}: took the parley entries out of ${file}, which was edited since setup, and kept the rest${outcome.backup === null ? '' : `; the file from before setup is ${outcome.backup}`}\n`,
      );
      break;
    case 'nothing':
      cli.ctx.out(`${host.name}: ${file} has no parley entries; nothing to remove\n`);
      break;
  }
  return EXIT.ok;
}

function listHosts(cli: Cli, flags: SetupFlags) {
  for (const id of MCP_HOSTS) {
    const host = HOSTS[id];
    let file: string;
    try {
      file = hostFile(host, flags.project);
    } catch {
      continue;
    }
    cli.ctx.out(`${id.padEnd(15)} ${host.name.padEnd(15)} ${file}\n`);
  }
  cli.ctx.err(
    `set one up with: ${commandLine([...cli.self, 'setup', 'HOST'])} [--services URL…] [--consensus]\n`,
  );
  return EXIT.ok;
}
