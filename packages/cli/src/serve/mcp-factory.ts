import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import type { McpConnection, McpTarget } from '@parley/mcp-gateway';
import {
  isPresetName,
  PRESET_NAMES,
  presetForServer,
  presetPath,
} from '@parley/mcp-gateway/presets';
import type { ServiceFactory } from '@parley/service';
import { CliError } from '../cli-error.js';

/** The flags of `parley serve mcp`. */
export type McpFlags = {
  name?: string;
  url?: string;
  config?: string;
  authHeader?: string;
  authEnv?: string;
};

/** What `parley serve mcp` runs: the factory, and how to stop the MCP server after it. */
export type McpSource = { create: ServiceFactory; close(): Promise<void> };

/**
 * The factory `parley serve mcp -- COMMAND ARGS…` (or `--url URL`) runs: it starts the server (or
 * connects to it) through the official MCP client, with restarts, and builds the gateway with
 * the configuration `--config` names (a file or preset), else the preset written for that
 * server, else the defaults. A credential for `--url` comes from the environment variable
 * `--auth-env` names, never from the command line. `say` gets what was served and skipped,
 * and every restart.
 */
export function mcpSource(
  name: string,
  command: readonly string[],
  flags: McpFlags,
  env: NodeJS.ProcessEnv,
  say: (line: string) => void,
): McpSource {
  const target = targetOf(command, flags, env);
  const configFile = configFileOf(flags.config);
  let connection: McpConnection | undefined;
  const report = (message: string): void => say(`[${name}] ${message}\n`);
  return {
    async create(serve) {
      // Loaded here: the MCP client SDK is not needed by any other command.
      const gateway = await import('@parley/mcp-gateway');
      try {
        connection = await gateway.McpConnection.open(target, { report });
        const server = connection.getServerVersion()?.name;
        const preset = configFile === undefined ? presetForServer(server) : undefined;
        const file = configFile ?? (preset === undefined ? undefined : presetPath(preset));
        const settings =
          file === undefined ? gateway.checkGatewayConfig({}) : gateway.loadGatewayConfig(file);
        if (preset !== undefined) {
          say(
            `configuration: the ${preset} preset, written for ${server} (--config FILE to choose)\n`,
          );
        }
        const built = await gateway.serviceFromMcp(connection, {
          ...settings,
          id: settings.id ?? name,
          report,
          ...serve,
        });
        const served = built.served();
        const reads = served.filter((tool) => tool.kind === 'ask').length;
        say(
          `serving ${served.length} tools of ${gateway.describeTarget(target)} as ${built.service.info.id}: ${reads} ask, ${served.length - reads} intent\n`,
        );
        for (const skip of built.skipped()) say(`skipped ${skip.tool}: ${skip.reason}\n`);
        return built.service;
      } catch (error) {
        await connection?.close();
        if (error instanceof gateway.GatewayError) throw new CliError(error.message);
        throw error;
      }
    },
    close: async () => {
      await connection?.close();
    },
  };
}

function targetOf(command: readonly string[], flags: McpFlags, env: NodeJS.ProcessEnv): McpTarget {
  if (flags.authHeader !== undefined && flags.authEnv === undefined) {
    throw new CliError(
      '--auth-header needs --auth-env VAR: the credential is read from the environment',
    );
  }
  if (flags.url !== undefined) {
    if (command.length > 0) {
      throw new CliError(
        `--url names the server; "${command[0]}" is one too many (a command goes after --, without --url)`,
      );
    }
    let url: URL;
    try {
      url = new URL(flags.url);
    } catch {
      throw new CliError(`--url ${flags.url} is not a URL`);
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') {
      throw new CliError(
        `--url takes an http:// or https:// Streamable HTTP endpoint (got ${url.protocol})`,
      );
    }
    return { url: url.toString(), headers: credentialHeaders(flags, env) };
  }
  if (flags.authEnv !== undefined) {
    throw new CliError(
      '--auth-env and --auth-header go with --url: a command gets its environment',
    );
  }
  const [program, ...args] = command;
  if (program === undefined) {
    throw new CliError('mcp needs a server: parley serve mcp -- COMMAND ARGS…, or --url URL');
  }
  // The server runs with this environment, as a shell would run it.
  const childEnv = Object.fromEntries(
    Object.entries(env).filter((entry): entry is [string, string] => entry[1] !== undefined),
  );
  return { command: program, args, env: childEnv };
}

function credentialHeaders(flags: McpFlags, env: NodeJS.ProcessEnv): Record<string, string> {
  if (flags.authEnv === undefined) return {};
  const secret = env[flags.authEnv];
  if (secret === undefined || secret.trim() === '') {
    throw new CliError(
      `${flags.authEnv} is not set: export ${flags.authEnv}=… with the server's credential`,
    );
  }
  // Without --auth-header the credential is a bearer token, as MCP's authorization uses.
  return flags.authHeader === undefined
    ? { authorization: `Bearer ${secret}` }
    : { [flags.authHeader]: secret };
}

function configFileOf(config: string | undefined): string | undefined {
  if (config === undefined) return undefined;
  if (isPresetName(config)) return presetPath(config);
  const file = resolve(config);
  if (!existsSync(file)) {
    throw new CliError(
      `no file ${config}, and no preset of that name (${PRESET_NAMES.join(', ')})`,
    );
  }
  return file;
}
