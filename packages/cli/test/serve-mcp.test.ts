import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openHost } from '../../mcp/test/support/hosts.js';
import { isToolError, textOf } from '../../mcp/test/support/results.js';
import { mcpServerName } from '../src/serve/mcp-server-name.js';
import {
  CHILD_TEST_TIMEOUT_MS,
  type CliResult,
  killAll,
  NODE_ARGS,
  runCli,
} from './fixtures/cli-process.js';
import { runInProcess } from './fixtures/in-process.js';
import { type ServedExample, serveExample } from './fixtures/served-example.js';
import { tempFolder } from './fixtures/temp-home.js';

const require = createRequire(import.meta.url);
/** server-memory, installed as a devDependency: run by node, never fetched by npx. */
const MEMORY = join(
  dirname(require.resolve('@modelcontextprotocol/server-memory/package.json')),
  'dist',
  'index.js',
);
const SERVER = [process.execPath, MEMORY];
const NAME = mcpServerName(SERVER);
const folder = tempFolder();
const memoryFile = join(folder.path, 'memory.jsonl');
const env = { PARLEY_HOME: folder.home, MEMORY_FILE_PATH: memoryFile };
let served: ServedExample;
let tcp = '';
let http = '';

const parley = (...args: string[]): Promise<CliResult> => runCli(args, env);

beforeAll(async () => {
  await parley('keys', 'init');
  // Commits up to medium risk; a high-risk (destructive) call needs the principal's consent.
  await parley('grant', '--svc', NAME, '--can', '*', '--risk', 'medium');
  served = await serveExample(
    'mcp',
    [
      '--tcp',
      '127.0.0.1:0',
      '--http',
      '127.0.0.1:0',
      '--data',
      join(folder.path, 'data'),
      '--',
      ...SERVER,
    ],
    env,
    2,
    NAME,
  );
  [tcp, http] = served.addresses as [string, string];
}, CHILD_TEST_TIMEOUT_MS);

afterAll(async () => {
  await served?.stop();
  killAll();
  folder.remove();
});

describe('parley serve mcp -- server-memory (issue 23)', { timeout: CHILD_TEST_TIMEOUT_MS }, () => {
  it('serves the tools on every endpoint: ask reads, intents show the exact call, commit and undo', async () => {
    const hello = await parley('hello', tcp);
    expect(hello.stdout).toContain(`# memory-server (${NAME})`);
    expect(hello.stdout).toContain('ask read_graph()');
    expect(hello.stdout).toMatch(
      /intent create_entities\(entities: \[\{name: string .*\[risk:medium\]/,
    );
    expect(hello.stdout).toMatch(/intent delete_entities\(.*\[risk:high\]/);

    const entities =
      '{"entities":[{"name":"Ana","entityType":"person","observations":["likes tea"]}]}';
    const intent = await parley('intent', tcp, 'create_entities', '--params', entities);
    expect(intent.code).toBe(0);
    expect(intent.stdout).toContain(
      '+ create tools/call create_entities — {"entities":[{"entityType":"person","name":"Ana","observations":["likes tea"]}]}',
    );
    expect(intent.stdout).toContain('cost: free · risk: medium · undo: 1h');
    const proposal = /\[(p_[\w-]+)\]/.exec(intent.stdout)?.[1] as string;

    const commit = await parley('commit', tcp, proposal);
    expect(commit.code).toBe(0);
    expect(commit.stdout).toMatch(/^✓ Call create_entities \(receipt (r_[\w-]+)\)/);
    const receipt = /\(receipt (r_[\w-]+)\)/.exec(commit.stdout)?.[1] as string;
    const replay = await parley('commit', tcp, proposal);
    expect(replay.stdout).toContain(`(receipt ${receipt}) (replay)`);
    expect(readFileSync(memoryFile, 'utf8').match(/"Ana"/g)).toHaveLength(1);

    const read = await parley('ask', http, 'open_nodes', '--params', '{"names":["Ana"]}');
    expect(read.stdout).toContain('likes tea');

    const undo = await parley('undo', tcp, receipt);
    expect(undo.code).toBe(0);
    expect(undo.stdout).toContain(`↶ undid ${receipt}: Call create_entities`);
    expect(readFileSync(memoryFile, 'utf8')).not.toContain('"Ana"');

    const doubt = await parley('doubt', 'mcp', NAME, '--data', join(folder.path, 'data'));
    expect(doubt.stdout).toContain('nothing in doubt');
  });

  it('host → parley mcp → parley serve mcp: a destructive tool asks the person, who approves', async () => {
    const proposal = JSON.stringify({
      entities: [{ name: 'Old', entityType: 'note', observations: [] }],
    });
    const made = await parley('intent', tcp, 'create_entities', '--params', proposal);
    await parley('commit', tcp, /\[(p_[\w-]+)\]/.exec(made.stdout)?.[1] as string);

    const host = await openHost({
      era: '2025-11-25',
      command: process.execPath,
      args: [...NODE_ARGS, 'mcp', '--principal-consent', tcp],
      env,
      answer: () => ({ action: 'accept', content: { approve: true } }),
    });
    try {
      // The host's default (packages/mcp README): one MCP tool per capability, so the agent calls
      // the server's own tool by its own name and schema, and now gets a proposal back.
      const { tools } = await host.client.listTools();
      expect(tools.find((tool) => tool.name === 'delete_entities')?.inputSchema).toMatchObject({
        properties: { entityNames: { type: 'array', items: { type: 'string' } } },
        required: ['entityNames'],
      });
      const intent = await host.client.callTool({
        name: 'delete_entities',
        arguments: { entityNames: ['Old'] },
      });
      expect(textOf(intent)).toContain(
        '- delete tools/call delete_entities — {"entityNames":["Old"]}',
      );
      expect(textOf(intent)).toContain('risk: high · undo: never');
      const id = /\[(p_[\w-]+)\]/.exec(textOf(intent))?.[1];
      const committed = await host.client.callTool({
        name: 'parley_commit',
        arguments: { proposal: id },
      });
      expect(isToolError(committed)).toBe(false);
      expect(textOf(committed)).toMatch(
        /^✓ Call delete_entities; it cannot be undone \(receipt r_[\w-]+\)/,
      );
      expect(host.elicited).toHaveLength(1);
      const shown = host.elicited[0]?.message ?? '';
      expect(shown).toContain(`Your agent asks you to approve a commit at ${NAME}`);
      expect(shown).toContain('- delete tools/call delete_entities — {"entityNames":["Old"]}');
      expect(shown).toMatch(/Risk: +high\n {2}Undo: +cannot be undone/);
      expect(readFileSync(memoryFile, 'utf8')).not.toContain('"Old"');
    } finally {
      await host.close();
    }
  });

  it('refuses what it cannot run, in one sentence and exit 2, before starting anything', async () => {
    const refusal = async (...args: string[]) => {
      const result = await runInProcess(['serve', 'mcp', ...args], { PARLEY_HOME: folder.home });
      expect(result.code).toBe(2);
      return result.stderr;
    };
    expect(await refusal()).toBe(
      'parley: mcp needs a server: parley serve mcp -- COMMAND ARGS…, or --url URL\n',
    );
    expect(await refusal('--url', 'ftp://127.0.0.1/x')).toContain(
      '--url takes an http:// or https:// Streamable HTTP endpoint (got ftp:)',
    );
    expect(await refusal('--auth-env', 'TOKEN', '--', 'node', 'x.js')).toContain(
      '--auth-env and --auth-header go with --url',
    );
    expect(await refusal('--config', './nope.json', '--', ...SERVER)).toContain(
      'no file ./nope.json, and no preset of that name (memory, filesystem)',
    );
    expect(
      await refusal('--tcp', '127.0.0.1:0', '--', join(folder.path, 'no-such-server')),
    ).toMatch(/^parley: cannot connect to the MCP server `.*no-such-server`: /);
  });

  it('stops the MCP server with the service', async () => {
    const stopped = await served.stop();
    expect(stopped.code).toBe(0);
    expect(stopped.stderr).toContain(`stopped ${NAME}`);
  });
});
