import { resolve } from 'node:path';
import type { Command } from 'commander';
import { CliError, EXIT } from '../cli-error.js';
import type { Cli } from '../command-kit.js';
import { keyFileExists } from '../home/key-file.js';
import { keyPath } from '../home/local-keys.js';
import { removeFromHostFile, setUpHostFile } from '../setup/host-config-file.js';
import { hostConfigFormat } from '../setup/host-config-format.js';
import { DEFAULT_SERVICES, ENTRY_NAMES, parleyEntries } from '../setup/mcp-entry.js';
import { findHost, HOSTS, hostEnvironment, MCP_HOSTS, type McpHost } from '../setup/mcp-hosts.js';
import { commandLine } from '../shell-quote.js';
import { describeHome } from '../verbs/acting-as.js';

type SetupFlags = {
  services?: string[];
  consensus?: boolean;
  project?: string;
  remove?: boolean;
};

/**
 * `parley setup HOST [--services URL…] [--consensus] [--project DIR]`: writes the MCP host's own
 * config entry for `parley mcp` (and `parley consensus-mcp`), run by this Node and this CLI by
 * absolute path with this PARLEY_HOME, so it starts as written. Idempotent; the file's original
 * bytes are kept beside it, and `parley setup --remove HOST` puts them back.
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
        const entries = parleyEntries({
          services,
          consensus: flags.consensus === true,
          home: cli.ctx.home,
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
            `  parley mcp ${services.join(' ')}, with the keys and grants of ${describeHome(cli.ctx)}`,
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
