import { accessSync, constants, existsSync, readFileSync } from 'node:fs';
import { isPlainObject } from '@parley/protocol';
import { CliError } from '../cli-error.js';
import { keyPath } from '../home/local-keys.js';
import { keptMcpToken, mcpTokenPath } from '../home/mcp-token-file.js';
import { hostConfigFormat } from '../setup/host-config-format.js';
import { ENTRY_NAMES } from '../setup/mcp-entry.js';
import { HOSTS, type HostEnvironment, MCP_HOSTS } from '../setup/mcp-hosts.js';
import { commandLine } from '../shell-quote.js';
import { type DoctorCheck, fail, ok, warn } from './doctor-check.js';

/** What the hosts' config files ask for: the checks, and the services their bridges name. */
export type HostFindings = { checks: DoctorCheck[]; services: string[] };

/**
 * Each MCP host whose user file has a parley entry: its command and script exist, and its
 * PARLEY_HOME holds an agent key (else the bridge exits at start); an entry that reaches
 * `parley mcp --http` by URL sends this home's bearer token.
 */
export function hostChecks(
  where: HostEnvironment,
  self: readonly string[],
  home: string,
): HostFindings {
  const checks: DoctorCheck[] = [];
  const services: string[] = [];
  for (const id of MCP_HOSTS) {
    const host = HOSTS[id];
    const file = host.userFile(where);
    if (!existsSync(file)) continue;
    let entries: Record<string, unknown>;
    try {
      entries = hostConfigFormat(host.format, file).entries(
        readFileSync(file, 'utf8'),
        Object.values(ENTRY_NAMES),
      );
    } catch (error) {
      const reason = error instanceof CliError ? error.message : String(error);
      checks.push(warn(host.name, reason, `fix ${file}`));
      continue;
    }
    for (const [name, entry] of Object.entries(entries)) {
      const label = `${host.name} ${name}`;
      const resetup = commandLine([
        ...self,
        'setup',
        id,
        ...(name === ENTRY_NAMES.consensus ? ['--consensus'] : []),
      ]);
      const remote = readHttpEntry(entry);
      if (remote !== undefined) {
        checks.push(httpEntryCheck(label, file, remote, home, [...self, 'setup', id]));
        continue;
      }
      const shape = readEntry(entry);
      if (shape === undefined) {
        checks.push(fail(label, `the entry in ${file} has no command and args`, resetup));
        continue;
      }
      const missing = [shape.command, ...shape.args.slice(0, 1)].find((path) => !runnable(path));
      if (missing !== undefined) {
        checks.push(fail(label, `${missing} (in ${file}) does not exist or cannot run`, resetup));
        continue;
      }
      if (name === ENTRY_NAMES.bridge) {
        const at = shape.args.indexOf('mcp');
        services.push(...shape.args.slice(at + 1).filter((arg) => !arg.startsWith('--')));
        const home = shape.env.PARLEY_HOME;
        if (home === undefined) {
          checks.push(
            fail(label, `${file} sets no PARLEY_HOME, so the bridge looks in ~/.parley`, resetup),
          );
          continue;
        }
        if (!existsSync(keyPath(home, 'agent'))) {
          checks.push(
            fail(
              label,
              `PARLEY_HOME=${home} (in ${file}) has no agent key, so the bridge exits at start`,
              `PARLEY_HOME=${home} ${commandLine([...self, 'keys', 'init'])}`,
            ),
          );
          continue;
        }
      }
      checks.push(
        ok(
          label,
          `${file} runs ${shape.args[0] ?? shape.command}${shape.env.PARLEY_HOME === undefined ? '' : ` with PARLEY_HOME=${shape.env.PARLEY_HOME}`}`,
        ),
      );
    }
  }
  return { checks, services };
}

/** An entry that reaches a server by URL, as any host spells it, with its Authorization header. */
function readHttpEntry(entry: unknown): { url: string; authorization?: string } | undefined {
  if (!isPlainObject(entry)) return undefined;
  const url = [entry.url, entry.serverUrl, entry.httpUrl].find((u) => typeof u === 'string');
  if (typeof url !== 'string') return undefined;
  const headers = isPlainObject(entry.headers)
    ? entry.headers
    : isPlainObject(entry.http_headers)
      ? entry.http_headers
      : {};
  const authorization = Object.entries(headers).find(
    ([name, value]) => name.toLowerCase() === 'authorization' && typeof value === 'string',
  )?.[1] as string | undefined;
  return { url, ...(authorization === undefined ? {} : { authorization }) };
}

/** `parley mcp --http` refuses a request without its token: does the entry send this home's? */
function httpEntryCheck(
  label: string,
  file: string,
  entry: { url: string; authorization?: string },
  home: string,
  setup: string[],
): DoctorCheck {
  let address: string;
  try {
    address = new URL(entry.url).host;
  } catch {
    return fail(label, `${entry.url} (in ${file}) is not a URL`, commandLine(setup));
  }
  const resetup = commandLine([...setup, '--http', address]);
  if (entry.authorization === undefined) {
    return fail(label, `${file} sends no bearer token to ${entry.url}, which refuses it`, resetup);
  }
  let kept: string | undefined;
  try {
    kept = keptMcpToken(home);
  } catch (error) {
    return warn(label, error instanceof CliError ? error.message : String(error), resetup);
  }
  if (kept === undefined || entry.authorization !== `Bearer ${kept}`) {
    return warn(
      label,
      `the bearer token in ${file} is not the one in ${mcpTokenPath(home)}, so a bridge started from this home refuses it (unless it runs with --token-file)`,
      resetup,
    );
  }
  return ok(label, `${file} reaches ${entry.url} with the bearer token in ${mcpTokenPath(home)}`);
}

function readEntry(
  entry: unknown,
): { command: string; args: string[]; env: Record<string, string> } | undefined {
  if (!isPlainObject(entry) || typeof entry.command !== 'string') return undefined;
  const args = Array.isArray(entry.args)
    ? entry.args.filter((a): a is string => typeof a === 'string')
    : [];
  const env = isPlainObject(entry.env)
    ? Object.fromEntries(
        Object.entries(entry.env).filter((e): e is [string, string] => typeof e[1] === 'string'),
      )
    : {};
  return { command: entry.command, args, env };
}

function runnable(path: string): boolean {
  try {
    accessSync(path, path.endsWith('.js') ? constants.R_OK : constants.X_OK);
    return true;
  } catch {
    return false;
  }
}
