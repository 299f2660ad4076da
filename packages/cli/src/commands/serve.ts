import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { PRESET_NAMES } from '@parley/openapi/presets';
import { isPublicKey, type KeyPair, publicKeyString } from '@parley/protocol';
import { armKillPoint, type ServiceFactory } from '@parley/service';
import { type HealthServer, hostPortText, listenHealth } from '@parley/transport';
import type { Command } from 'commander';
import { CliError, EXIT } from '../cli-error.js';
import type { Cli } from '../command-kit.js';
import { collectList } from '../grants/caveat-options.js';
import { localPublicKey } from '../home/local-keys.js';
import { reasonOf } from '../home/parley-home.js';
import { loadServiceKey, serviceKeyPath } from '../home/service-key.js';
import { ParleyMetrics, watchedOf } from '../ops/metrics.js';
import { listenMetrics, type MetricsServer } from '../ops/metrics-server.js';
import { bothObservers } from '../ops/observers.js';
import { type LogFormat, parseLogFormat, serviceLog } from '../ops/request-log.js';
import { addBrowserFlags, type BrowserFlags, browserPolicyFrom } from '../serve/browser-flags.js';
import { EXAMPLE_NAMES, type ExampleName, isExampleName } from '../serve/example-services.js';
import { hostPortFlag } from '../serve/host-port.js';
import { type McpFlags, mcpSource } from '../serve/mcp-factory.js';
import { type OpenApiFlags, openApiFactory } from '../serve/openapi-factory.js';
import { runExample } from '../serve/run-example.js';
import {
  DEFAULT_GRACE_MS,
  type Endpoint,
  HANDLER_EXTRA_MS,
  runService,
} from '../serve/run-service.js';
import { loadServiceFactory } from '../serve/service-module.js';
import { serviceName } from '../serve/service-name.js';
import { untilStopped } from '../serve/until-stopped.js';

/** §2.4: where the HTTP bridge answers. */
export const HTTP_PATH = '/parley';
/** Where `serve` listens when no endpoint is given (§2.3's default TCP port). */
const DEFAULT_TCP = '127.0.0.1:7447';

type ServeFlags = OpenApiFlags &
  McpFlags &
  BrowserFlags & {
    tcp?: string[];
    tls?: string[];
    cert?: string;
    key?: string;
    http?: string[];
    stdio?: boolean;
    data?: string;
    store?: string;
    trust?: string[];
    localTrust: boolean;
    health?: string;
    metrics?: string;
    logFormat: LogFormat;
    grace?: string;
    sweep: boolean;
    serviceKey?: string;
    signedReceipts: boolean;
    revocation: boolean;
    approvals: boolean;
    audit: boolean;
  };

/**
 * What `serve` runs: its name (for the data folder and messages), how to build it, and what to
 * stop once it has stopped (an MCP server the gateway started).
 */
type ServiceSource = {
  name: string;
  create: ServiceFactory | undefined;
  close?: () => Promise<void>;
};

/**
 * `parley serve NAME | openapi DOCUMENT | mcp -- COMMAND | ./module.ts`: runs a bundled example,
 * an HTTP API from its OpenAPI document, an MCP server's tools, or the service a module exports,
 * on a SqliteStore (or PostgreSQL) over TCP, TLS, the HTTP bridge or stdio, until SIGTERM or
 * SIGINT (or, with --stdio, the end of stdin).
 */
export function registerServe(program: Command, cli: Cli, env: NodeJS.ProcessEnv): void {
  const command = program
    .command('serve')
    .description(
      `run a service: a bundled example (${EXAMPLE_NAMES.join(', ')}), an HTTP API from its OpenAPI document (openapi DOCUMENT), an MCP server's tools (mcp -- COMMAND ARGS…, or mcp --url URL), or your own module (./my-service.ts)`,
    )
    .argument(
      '<service>',
      `${EXAMPLE_NAMES.join(', ')}, openapi, mcp, or a module file like ./my-service.ts`,
    )
    .argument(
      '[rest...]',
      `with openapi: a YAML or JSON file, or a preset (${PRESET_NAMES.join(', ')}); with mcp, after --: the server's command and its arguments`,
    )
    .option(
      '--tcp <host:port>',
      `parley:// endpoint (default ${DEFAULT_TCP}; port 0 picks one)`,
      collectList,
    )
    .option('--tls <host:port>', 'parleys:// endpoint; needs --cert and --key', collectList)
    .option('--cert <file>', 'TLS certificate (PEM)')
    .option('--key <file>', 'TLS private key (PEM)')
    .option('--http <host:port>', `HTTP bridge endpoint, at path ${HTTP_PATH}`, collectList)
    .option(
      '--health <host:port>',
      'answer GET /healthz (alive) and /readyz (store reachable, keys loaded) on this address; the --http endpoints answer them too',
    )
    .option(
      '--metrics <host:port>',
      'serve Prometheus metrics at http://HOST:PORT/metrics (off by default; keep it on a private address)',
    )
    .option(
      '--log-format <format>',
      'text, or json (one pino object a line): one line per request with its id, verb, capability, outcome and duration, on stderr',
      parseLogFormat,
      'text',
    )
    .option(
      '--grace <seconds>',
      `on SIGTERM, how long requests in flight may take to finish before connections are cut (default ${DEFAULT_GRACE_MS / 1000}; a COMMIT already applying gets ${HANDLER_EXTRA_MS / 1000} s more)`,
    )
    .option(
      '--no-sweep',
      'leave deleting expired proposals, handles and auto records to another instance on the same store (large fleets)',
    )
    .option('--stdio', 'serve one connection on stdin/stdout (logs go to stderr)')
    .option('--data <dir>', 'the SQLite data folder (default PARLEY_HOME/data/NAME)')
    .option('--store <url>', 'keep state in PostgreSQL (postgres://…) instead; not with --data')
    .option('--trust <key>', 'trust this principal key (repeatable)', collectList)
    .option('--no-local-trust', 'do not trust the local principal key')
    .option(
      '--service-key <file>',
      "the service's own key that signs its receipts (made, mode 0600, if missing; default DATA/service-key.json); instances behind one address share one file",
    )
    .option('--no-signed-receipts', 'send unsigned v1 receipts and announce no receipt key')
    .option(
      '--no-revocation',
      'do not accept revocations (REVOKE is then an unknown verb, as in v1)',
    )
    .option('--no-approvals', 'refuse approvals caveats, as a v1 service does (§6.3)')
    .option(
      '--no-audit',
      'keep no audit trail (§E3) and do not announce one: on PostgreSQL every instance queues on the trail to commit (docs/scaling.md)',
    )
    .option('--upstream <url>', "with openapi: the API's base URL (default: the document's server)")
    .option(
      '--auth-env <var>',
      'with openapi or mcp --url: the environment variable holding the credential',
    )
    .option(
      '--auth-header <name>',
      "with openapi or mcp --url: the header that carries it (default: the document's security scheme; for mcp, Authorization: Bearer)",
    )
    .option('--url <url>', "with mcp: the server's Streamable HTTP endpoint, instead of a command")
    .option('--name <name>', 'with mcp: the name for its data folder and service id')
    .option(
      '--config <file>',
      'with mcp: the configuration (JSON, or a preset: memory, filesystem; default: the preset written for the server, if any)',
    );
  addBrowserFlags(command).action(
    cli.act(async (target: string, rest: string[], flags: ServeFlags) => {
      const { ctx } = cli;
      if (flags.store !== undefined && flags.data !== undefined) {
        throw new CliError('--store and --data both say where state lives: give one of them');
      }
      armTestKillPoint(env);
      // With --stdio, stdout carries frames only: everything else goes to stderr.
      const say = flags.stdio === true ? ctx.err : ctx.out;
      const healthAt =
        flags.health === undefined ? undefined : hostPortFlag(flags.health, '--health');
      const metricsAt =
        flags.metrics === undefined ? undefined : hostPortFlag(flags.metrics, '--metrics');
      const graceMs = flags.grace === undefined ? undefined : graceMsOf(flags.grace);
      const source = await serviceSource(target, rest, flags, env, (line) => ctx.err(line));
      const endpoints = endpointsFrom(flags);
      const metrics = metricsAt === undefined ? undefined : new ParleyMetrics();
      const log = serviceLog(flags.logFormat, (line) => ctx.err(line));
      const observers = [log.observer(), ...(metrics === undefined ? [] : [metrics.observer()])];
      const trust = await trustedKeys(ctx.home, flags);
      const folder = resolve(flags.data ?? join(ctx.home, 'data', source.name));
      const receiptKey = receiptKeyLoader(folder, flags, log.message);
      const options = {
        store: flags.store ?? folder,
        trust,
        endpoints,
        log: log.message,
        sweep: flags.sweep,
        ...(graceMs === undefined ? {} : { graceMs }),
        observe: bothObservers(observers),
        ...(receiptKey === undefined ? {} : { receiptKey }),
        revocation: flags.revocation,
        approvals: flags.approvals,
        audit: flags.audit,
      };
      let running: Awaited<ReturnType<typeof runService>>;
      try {
        running =
          source.create === undefined
            ? await runExample(source.name as ExampleName, options)
            : await runService(source.name, source.create, options);
      } catch (error) {
        await source.close?.();
        throw error;
      }
      for (const server of running.servers) say(`listening ${server.address} (${running.name})\n`);
      let health: HealthServer | undefined;
      if (healthAt !== undefined) {
        try {
          health = await listenHealth({ ...healthAt, ready: running.ready });
        } catch (error) {
          await running.close();
          await source.close?.();
          throw new CliError(`--health: ${reasonOf(error)}`);
        }
        say(`health ${health.address}/healthz and /readyz (${running.name})\n`);
      }
      let metricsServer: MetricsServer | undefined;
      if (metrics !== undefined && metricsAt !== undefined) {
        metrics.watch(watchedOf(running));
        try {
          metricsServer = await listenMetrics(metrics, metricsAt.host, metricsAt.port);
        } catch (error) {
          await health?.close();
          await running.close();
          await source.close?.();
          throw error;
        }
        say(`metrics ${metricsServer.address} (${running.name})\n`);
      }
      const served = health;
      const scraped = metricsServer;
      if (trust.length === 0) {
        log.message(
          'warning: no principal is trusted, so every grant is refused; pass --trust ed25519:…',
        );
      }
      for (const key of trust) log.info(`trusting principal ${key}`);
      const whole = {
        // /readyz turns 503 first, so a balancer stops sending work while in-flight work ends.
        async close() {
          served?.stopping();
          await running.close();
          await served?.close();
          await scraped?.close();
        },
      };
      await untilStopped([whole], (stop) => {
        if (flags.stdio !== true) return;
        process.stdin.once('end', stop);
        process.stdin.once('close', stop);
      });
      await source.close?.();
      log.info(`stopped ${running.name}`);
      return EXIT.ok;
    }),
  );
}

/** `--grace SECONDS`: a number of seconds from 0 to 3600. */
function graceMsOf(text: string): number {
  const seconds = Number(text);
  if (text.trim() === '' || !Number.isFinite(seconds) || seconds < 0 || seconds > 3600) {
    throw new CliError(
      `--grace takes a number of seconds from 0 to 3600 (got "${text.slice(0, 40)}")`,
    );
  }
  return Math.round(seconds * 1000);
}

/**
 * The crash campaign's hook (@parley/service kill-point.ts): PARLEY_TEST_KILL_POINT=NAME:N makes
 * this process SIGKILL itself the N-th time the commit path reaches point NAME. Tests only.
 */
function armTestKillPoint(env: NodeJS.ProcessEnv): void {
  const spec = env.PARLEY_TEST_KILL_POINT;
  if (spec === undefined || spec === '') return;
  try {
    armKillPoint(spec);
  } catch (error) {
    throw new CliError(`PARLEY_TEST_KILL_POINT: ${reasonOf(error)}`);
  }
}

/** Which service the arguments name; flags that belong to another kind are refused. */
async function serviceSource(
  target: string,
  rest: readonly string[],
  flags: ServeFlags,
  env: NodeJS.ProcessEnv,
  say: (line: string) => void,
): Promise<ServiceSource> {
  const name = serviceName(target, rest, 'serve', flags);
  const mcpFlag = (['url', 'name', 'config'] as const).find((flag) => flags[flag] !== undefined);
  if (target !== 'mcp' && mcpFlag !== undefined) {
    throw new CliError('--url, --name and --config go with parley serve mcp');
  }
  if (target === 'mcp') {
    if (flags.upstream !== undefined)
      throw new CliError('--upstream goes with parley serve openapi');
    return { name, ...mcpSource(name, rest, flags, env, say) };
  }
  if (target === 'openapi') {
    return { name, create: openApiFactory(rest[0] as string, flags, env, say) };
  }
  const openApiFlag = (['upstream', 'authEnv', 'authHeader'] as const).find(
    (flag) => flags[flag] !== undefined,
  );
  if (openApiFlag !== undefined) {
    throw new CliError(
      '--upstream goes with parley serve openapi; --auth-env and --auth-header with openapi or mcp --url',
    );
  }
  return { name, create: isExampleName(target) ? undefined : await loadServiceFactory(target) };
}

function endpointsFrom(flags: ServeFlags): Endpoint[] {
  if (flags.stdio === true) {
    if (flags.tcp !== undefined || flags.tls !== undefined || flags.http !== undefined) {
      throw new CliError('--stdio serves stdin/stdout alone; drop --tcp, --tls and --http');
    }
    return [{ url: 'stdio:' }];
  }
  const endpoints: Endpoint[] = [];
  const tcp =
    flags.tcp ?? (flags.tls === undefined && flags.http === undefined ? [DEFAULT_TCP] : []);
  for (const text of tcp) {
    const { host, port } = hostPortFlag(text, '--tcp');
    endpoints.push({ url: `parley://${hostPortText({ host, port })}` });
  }
  if (flags.tls !== undefined) {
    if (flags.cert === undefined || flags.key === undefined) {
      throw new CliError('--tls needs --cert FILE and --key FILE');
    }
    const tls = { cert: readPem(flags.cert), key: readPem(flags.key) };
    for (const text of flags.tls) {
      const { host, port } = hostPortFlag(text, '--tls');
      endpoints.push({ url: `parleys://${hostPortText({ host, port })}`, tls });
    }
  }
  if ((flags.cors !== undefined || flags.allowHost !== undefined) && flags.http === undefined) {
    throw new CliError('--cors and --allow-host concern the HTTP bridge; add --http HOST:PORT');
  }
  const browser = browserPolicyFrom(flags);
  for (const text of flags.http ?? []) {
    const { host, port } = hostPortFlag(text, '--http');
    endpoints.push({ url: `http://${hostPortText({ host, port })}${HTTP_PATH}`, browser });
  }
  return endpoints;
}

function readPem(path: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch (error) {
    throw new CliError(`cannot read ${path}: ${reasonOf(error)}`);
  }
}

/**
 * docs/extensions.md §E1: how to load the key that signs this service's receipts (run once the
 * service is made), unless turned off.
 */
function receiptKeyLoader(
  folder: string,
  flags: ServeFlags,
  say: (line: string) => void,
): (() => Promise<KeyPair>) | undefined {
  if (!flags.signedReceipts) {
    if (flags.serviceKey !== undefined) {
      throw new CliError('--service-key and --no-signed-receipts contradict each other');
    }
    return undefined;
  }
  const path = resolve(flags.serviceKey ?? serviceKeyPath(folder));
  return () => loadKey(path, say);
}

async function loadKey(path: string, say: (line: string) => void): Promise<KeyPair> {
  const { key, created } = await loadServiceKey(path);
  say(
    `${created ? 'made' : 'signing receipts with'} service key ${publicKeyString(key)} (${path})`,
  );
  return key;
}

/** --trust keys, and the local principal's unless --no-local-trust. */
async function trustedKeys(home: string, flags: ServeFlags): Promise<string[]> {
  const keys = [...(flags.trust ?? [])];
  const malformed = keys.find((key): boolean => !isPublicKey(key));
  if (malformed !== undefined) {
    throw new CliError(`--trust takes "ed25519:…" keys (got "${malformed.slice(0, 60)}")`);
  }
  if (flags.localTrust) {
    const local = await localPublicKey(home, 'principal');
    if (local !== undefined && !keys.includes(local)) keys.push(local);
  }
  return keys;
}
