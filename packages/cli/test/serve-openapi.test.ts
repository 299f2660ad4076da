import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BASE_PATH, PetstoreUpstream } from '../../openapi/test/petstore-upstream.js';
import { CHILD_TEST_TIMEOUT_MS, type CliResult, killAll, runCli } from './fixtures/cli-process.js';
import { runInProcess } from './fixtures/in-process.js';
import { type ServedExample, serveExample } from './fixtures/served-example.js';
import { tempFolder } from './fixtures/temp-home.js';

const SECRET = 'pk_live_51Hx9cliTestKey0042';
const folder = tempFolder();
const env = { PARLEY_HOME: folder.home, PETSTORE_KEY: SECRET };
const upstream = new PetstoreUpstream(SECRET);
/** Everything every child printed, for the credential scan. */
const printed: string[] = [];
let served: ServedExample;
let url = '';

const parley = async (...args: string[]): Promise<CliResult> => {
  const result = await runCli(args, env);
  printed.push(result.stdout, result.stderr);
  return result;
};

beforeAll(async () => {
  const origin = await upstream.start();
  upstream.pets.set(1, { id: 1, name: 'Rex', photoUrls: [], status: 'available' });
  await parley('keys', 'init');
  await parley('grant', '--svc', 'petstore.swagger.io', '--can', 'petstore.*');
  served = await serveExample(
    'openapi',
    [
      'petstore',
      '--upstream',
      origin,
      '--auth-env',
      'PETSTORE_KEY',
      '--tcp',
      '127.0.0.1:0',
      '--data',
      join(folder.path, 'petstore'),
    ],
    env,
    1,
    'petstore.swagger.io',
  );
  url = served.addresses[0] as string;
}, CHILD_TEST_TIMEOUT_MS);

afterAll(async () => {
  const stopped = await served?.stop();
  printed.push(stopped?.stderr ?? '');
  killAll();
  await upstream.close();
  folder.remove();
});

describe('parley serve openapi (issue 14)', { timeout: CHILD_TEST_TIMEOUT_MS }, () => {
  it('serves the petstore preset; ask, intent, commit and undo go to the upstream as shown', async () => {
    const hello = await parley('hello', url);
    expect(hello.stdout).toContain('# Swagger Petstore (petstore.swagger.io)');
    expect(hello.stdout).toContain('intent petstore.addPet(');

    const pet = await parley('ask', url, 'petstore.getPetById', 'petId:=1');
    expect(pet.code).toBe(0);
    expect(pet.stdout).toContain('name: Rex');

    const intent = await parley('intent', url, 'petstore.addPet', 'name=Nova', 'photoUrls:=[]');
    expect(intent.code).toBe(0);
    expect(intent.stdout).toContain(
      `+ create POST ${upstream.origin}${BASE_PATH}/pet — {"name":"Nova","photoUrls":[]}`,
    );
    expect(intent.stdout).toContain('cost: free · risk: medium · undo: 1h');
    const proposal = /\[(p_[\w-]+)\]/.exec(intent.stdout)?.[1] as string;

    const commit = await parley('commit', url, proposal);
    expect(commit.code).toBe(0);
    expect(commit.stderr).toContain(`… sending POST ${BASE_PATH}/pet (50%)`);
    const receipt = /\(receipt (r_[\w-]+)\)/.exec(commit.stdout)?.[1] as string;
    const created = [...upstream.pets.values()].find((p) => p.name === 'Nova');
    expect(upstream.received.filter((r) => r.method === 'POST').at(-1)?.body).toBe(
      '{"name":"Nova","photoUrls":[]}',
    );

    const undo = await parley('undo', url, receipt);
    expect(undo.code).toBe(0);
    // docs/extensions.md §E1: serve signs the reversal with the key in its data folder.
    const serviceKey = JSON.parse(
      readFileSync(join(folder.path, 'petstore', 'service-key.json'), 'utf8'),
    ).public as string;
    expect(undo.stderr).toBe(
      [
        `… checking ${BASE_PATH}/pet/${created?.id} is as the commit left it (25%)`,
        `… sending DELETE ${BASE_PATH}/pet/${created?.id} (50%)`,
        `signed by petstore.swagger.io (${serviceKey})`,
        '',
      ].join('\n'),
    );
    expect(upstream.received.at(-1)).toMatchObject({
      method: 'DELETE',
      url: `${BASE_PATH}/pet/${created?.id}`,
    });
    expect(upstream.pets.has(created?.id ?? -1)).toBe(false);
  });

  it('§5.1: a COMMIT after the pet changed upstream is refused with conflict (exit 1)', async () => {
    const intent = await parley('intent', url, 'petstore.deletePet', 'petId:=1');
    const proposal = /\[(p_[\w-]+)\]/.exec(intent.stdout)?.[1] as string;
    upstream.touchPet(1, { status: 'sold' });
    const commit = await parley('commit', url, proposal);
    expect(commit.code).toBe(1);
    expect(commit.stdout).toContain(`✗ conflict: ${BASE_PATH}/pet/1 changed at the upstream`);
    expect(upstream.pets.has(1)).toBe(true);
    // Progress says what happened: the pet was read again, and the DELETE never sent.
    expect(commit.stderr).toBe(`… checking ${BASE_PATH}/pet/1 is as proposed (25%)\n`);
  });

  it('§6.6: a COMMIT that needs consent sends nothing, and its progress says nothing was sent', async () => {
    // Another agent of the same principal, whose grant stops at low risk.
    const other = tempFolder();
    const otherEnv = { PARLEY_HOME: other.home };
    try {
      await runCli(['keys', 'init'], otherEnv);
      const grant = await runCli(
        [
          'grant',
          '--principal',
          join(folder.home, 'principal.key'),
          '--svc',
          'petstore.swagger.io',
          '--can',
          'petstore.*',
          '--risk',
          'low',
        ],
        otherEnv,
      );
      expect(grant.code).toBe(0);
      const intent = await runCli(
        ['intent', url, 'petstore.addPet', 'name=Quill', 'photoUrls:=[]'],
        otherEnv,
      );
      const proposal = /\[(p_[\w-]+)\]/.exec(intent.stdout)?.[1] as string;
      const posts = upstream.received.filter((r) => r.method === 'POST').length;
      const commit = await runCli(['commit', url, proposal], otherEnv);
      printed.push(commit.stdout, commit.stderr);
      expect(commit.code).toBe(3);
      expect(commit.stdout).toContain('consent_required');
      expect(commit.stderr).toMatch(/^The principal must approve this at their terminal:\n/);
      expect(commit.stderr).not.toContain('sending');
      expect(upstream.received.filter((r) => r.method === 'POST')).toHaveLength(posts);
    } finally {
      other.remove();
    }
  });

  it('upstream errors print as typed errors with the status and the body, the key hidden', async () => {
    const missing = await parley('ask', url, 'petstore.getPetById', 'petId:=404');
    expect(missing.code).toBe(1);
    expect(missing.stdout).toContain('✗ not_found: the upstream answered HTTP 404 Not Found');
    expect(missing.stdout).toContain('"received_api_key":"***"');
  });

  it('refuses, in one sentence and exit 2: no document, a missing variable, flags of another kind', async () => {
    const refusal = async (...args: string[]) => {
      const result = await runInProcess(['serve', ...args], { PARLEY_HOME: folder.home });
      expect(result.code).toBe(2);
      return result.stderr;
    };
    expect(await refusal('openapi')).toContain('openapi needs a document');
    expect(
      await refusal(
        'openapi',
        'petstore',
        '--upstream',
        'http://127.0.0.1:9',
        '--auth-env',
        'NOT_SET_HERE',
      ),
    ).toBe(
      "parley: NOT_SET_HERE is not set: export NOT_SET_HERE=… with the upstream's credential\n",
    );
    expect(await refusal('openapi', './nope.yaml')).toContain(
      'no file ./nope.yaml, and no preset of that name (petstore, github)',
    );
    expect(await refusal('openapi', 'petstore')).toContain(
      "the document's server URL /api/v3 is relative",
    );
    expect(await refusal('calendar', '--upstream', 'http://x')).toContain(
      '--upstream goes with parley serve openapi; --auth-env and --auth-header with openapi or mcp --url',
    );
    expect(await refusal('petshop')).toContain(
      'no service "petshop": serve calendar, shop, openapi DOCUMENT, mcp -- COMMAND, or a module file',
    );
  });

  it('the key is in nothing any command printed, the server included', async () => {
    const stopped = await served.stop();
    printed.push(stopped.stderr);
    const all = printed.join('\n');
    expect(all).toContain('serving 16 operations of petstore');
    expect(all).toContain('skipped POST /pet/{petId}/uploadImage');
    expect(all).not.toContain(SECRET);
  });
});
