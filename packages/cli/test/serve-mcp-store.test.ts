// @module-tag postgres: runs against this run's PostgreSQL (see packages/test-support)
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  DATABASE_URL,
  dropSchema,
  freshSchema,
  withClient,
} from '../../store-postgres/test/database.js';
import { CHILD_TEST_TIMEOUT_MS, type CliResult, killAll, runCli } from './fixtures/cli-process.js';
import { serveExample } from './fixtures/served-example.js';
import { tempFolder } from './fixtures/temp-home.js';

// Issue 23: every flag of `parley serve` works the same with `serve mcp`; here --store (state in
// PostgreSQL, kept across a restart), --trust with --no-local-trust (only that principal's grants
// are honoured) and --name (the service id grants name).

const require = createRequire(import.meta.url);
/** server-memory, installed as a devDependency: run by node, never fetched by npx. */
const MEMORY = join(
  dirname(require.resolve('@modelcontextprotocol/server-memory/package.json')),
  'dist',
  'index.js',
);
const NAME = 'team-memory';
const folder = tempFolder();
const memoryFile = join(folder.path, 'memory.jsonl');
const env = { PARLEY_HOME: folder.home, MEMORY_FILE_PATH: memoryFile };
/** Another person with keys of their own, whom the service does not trust. */
const stranger = { ...env, PARLEY_HOME: join(folder.path, 'stranger') };
const schema = freshSchema();
let principal = '';

const parley = (...args: string[]): Promise<CliResult> => runCli(args, env);

function serveMemory() {
  const args = ['--name', NAME, '--store', `${DATABASE_URL}?schema=${schema}`, '--no-local-trust'];
  return serveExample(
    'mcp',
    ['--tcp', '127.0.0.1:0', ...args, '--trust', principal, '--', process.execPath, MEMORY],
    env,
    1,
    NAME,
  );
}

beforeAll(async () => {
  const keys = await parley('keys', 'init');
  principal = /^principal (ed25519:\S+)/m.exec(keys.stdout)?.[1] as string;
  await parley('grant', '--svc', NAME, '--can', '*', '--risk', 'medium');
  await runCli(['keys', 'init'], stranger);
  await runCli(['grant', '--svc', NAME, '--can', '*', '--risk', 'medium'], stranger);
}, CHILD_TEST_TIMEOUT_MS);

afterAll(async () => {
  killAll();
  await dropSchema(schema);
  folder.remove();
});

describe('parley serve mcp --store --trust --name (issue 23)', {
  timeout: CHILD_TEST_TIMEOUT_MS,
}, () => {
  it('keeps receipts in PostgreSQL: after a restart a replayed COMMIT returns the first receipt', async () => {
    const first = await serveMemory();
    const at = first.addresses[0] as string;
    const entities = '{"entities":[{"name":"Eve","entityType":"person","observations":[]}]}';

    // --no-local-trust --trust KEY: a grant from anyone else is refused, nothing proposed.
    const refused = await runCli(['intent', at, 'create_entities', '--params', entities], stranger);
    expect(refused.code).toBe(1);
    expect(refused.stdout).toBe(
      '✗ unauthorized: the grant is issued by a principal this service does not trust\n',
    );

    const intent = await parley('intent', at, 'create_entities', '--params', entities);
    const proposal = /\[(p_[\w-]+)\]/.exec(intent.stdout)?.[1] as string;
    const commit = await parley('commit', at, proposal);
    const receipt = /\(receipt (r_[\w-]+)\)/.exec(commit.stdout)?.[1] as string;
    expect(receipt).toBeDefined();
    expect((await first.stop()).code).toBe(0);

    // The receipt lives in its commit's row (store-postgres receipts-once.ts), not in a folder.
    const rows = await withClient((c) =>
      c.query(`SELECT receipt_id FROM "${schema}".commits WHERE state = 'done'`),
    );
    expect(rows.rows.map((row) => row.receipt_id)).toEqual([receipt]);

    const second = await serveMemory();
    const replay = await parley('commit', second.addresses[0] as string, proposal);
    expect(replay.stdout).toContain(`(receipt ${receipt}) (replay)`);
    expect(readFileSync(memoryFile, 'utf8').match(/"Eve"/g)).toHaveLength(1);
    expect((await second.stop()).code).toBe(0);
  });
});
