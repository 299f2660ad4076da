// `parley doubt`: the operator's view of commits and undos left in doubt, and their settling
// (§4.4, §4.5), against a real `parley serve openapi` child whose upstream's gateway loses answers.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BASE_PATH, PetstoreUpstream } from '../../openapi/test/petstore-upstream.js';
import { CHILD_TEST_TIMEOUT_MS, type CliResult, killAll, runCli } from './fixtures/cli-process.js';
import { runInProcess } from './fixtures/in-process.js';
import { type ServedExample, serveExample } from './fixtures/served-example.js';
import { tempFolder } from './fixtures/temp-home.js';

const SECRET = 'pk_test_doubt_0042';
const folder = tempFolder();
const data = join(folder.path, 'petstore');
const env = { PARLEY_HOME: folder.home, PETSTORE_KEY: SECRET };
const upstream = new PetstoreUpstream(SECRET);
let served: ServedExample;
let url = '';

const parley = (...args: string[]): Promise<CliResult> => runCli(args, env);
const doubt = (...args: string[]): Promise<CliResult> =>
  parley('doubt', 'openapi', 'petstore', '--data', data, ...args);
/** The one proposal of an addPet INTENT for a pet of this name. */
async function proposePet(name: string): Promise<string> {
  const intent = await parley('intent', url, 'petstore.addPet', `name=${name}`, 'photoUrls:=[]');
  expect(intent.code).toBe(0);
  return /\[(p_[\w-]+)\]/.exec(intent.stdout)?.[1] as string;
}
const posts = () => upstream.received.filter((r) => r.method === 'POST').length;
const deletes = () => upstream.received.filter((r) => r.method === 'DELETE').length;

beforeAll(async () => {
  const origin = await upstream.start();
  await parley('keys', 'init');
  await parley('grant', '--svc', 'petstore.swagger.io', '--can', 'petstore.*');
  served = await serveExample(
    'openapi',
    ['petstore', '--upstream', origin, '--auth-env', 'PETSTORE_KEY', '--tcp', '127.0.0.1:0'].concat(
      ['--data', data],
    ),
    env,
    1,
    'petstore.swagger.io',
  );
  url = served.addresses[0] as string;
}, CHILD_TEST_TIMEOUT_MS);

afterAll(async () => {
  await served?.stop();
  killAll();
  await upstream.close();
  folder.remove();
});

describe('parley doubt', { timeout: CHILD_TEST_TIMEOUT_MS }, () => {
  it('§4.4: lists a commit whose answer was lost; --applied writes its receipt, which a retried COMMIT gets', async () => {
    const proposal = await proposePet('Nova');
    upstream.gatewayNext = { status: 504, reached: true };
    const lost = await parley('commit', url, proposal);
    expect(lost.code).toBe(1);
    expect(lost.stdout).toContain('✗ unavailable');
    expect(lost.stdout).toContain('it may have been carried out');
    const created = [...upstream.pets.values()].find((p) => p.name === 'Nova');
    expect(created).toBeDefined();

    // The service keeps running; the operator looks at the same data folder.
    const listed = await doubt();
    expect(listed.code).toBe(0);
    expect(listed.stdout).toMatch(
      new RegExp(
        `^1 in doubt in ${data}\\ncommit ${proposal} petstore\\.addPet "[^"\\n]+" since \\d{4}-\\d\\d-\\d\\dT[\\d:]+Z\\n$`,
      ),
    );
    // One in doubt: the printed commands name it.
    expect(listed.stderr).toContain(
      `parley doubt openapi petstore --data ${data} --applied ${proposal}\n`,
    );
    expect(listed.stderr).toContain(`--not-applied ${proposal}\n`);
    const json = JSON.parse((await doubt('--json')).stdout) as { kind: string; id: string }[];
    expect(json).toMatchObject([{ kind: 'commit', id: proposal, capability: 'petstore.addPet' }]);

    const settled = await doubt('--applied', proposal, '--result', JSON.stringify(created));
    expect(settled.code).toBe(0);
    const receipt = /receipt (r_[\w-]+)/.exec(settled.stderr)?.[1] as string;
    expect(settled.stderr).toBe(`settled: retries of ${proposal} now get receipt ${receipt}\n`);
    expect(settled.stdout).toContain(receipt);
    expect((await doubt()).stdout).toBe(`nothing in doubt in ${data}\n`);

    const before = posts();
    const retried = await parley('commit', url, proposal);
    expect(retried.code).toBe(0);
    expect(retried.stdout).toContain(receipt);
    expect(posts()).toBe(before);
  });

  it('§4.4: --not-applied releases a commit that never reached the API; it commits once', async () => {
    const proposal = await proposePet('Ody');
    upstream.gatewayNext = { status: 502, reached: false };
    expect((await parley('commit', url, proposal)).code).toBe(1);
    expect([...upstream.pets.values()].filter((p) => p.name === 'Ody')).toEqual([]);
    expect((await doubt()).stdout).toContain(`commit ${proposal} petstore.addPet`);

    const released = await doubt('--not-applied', proposal);
    expect(released.code).toBe(0);
    expect(released.stdout).toBe(`released: proposal ${proposal} can be committed again\n`);
    const again = await parley('commit', url, proposal);
    expect(again.code).toBe(0);
    expect([...upstream.pets.values()].filter((p) => p.name === 'Ody')).toHaveLength(1);
  });

  it('§4.5: an undo whose answer was lost is listed and settled the same way, never sent twice', async () => {
    const proposal = await proposePet('Pip');
    const committed = await parley('commit', url, proposal);
    const receipt = /\(receipt (r_[\w-]+)\)/.exec(committed.stdout)?.[1] as string;
    const pet = [...upstream.pets.values()].find((p) => p.name === 'Pip');
    upstream.gatewayNext = { status: 504, reached: true };
    const lost = await parley('undo', url, receipt);
    expect(lost.code).toBe(1);
    expect(upstream.received.at(-1)).toMatchObject({
      method: 'DELETE',
      url: `${BASE_PATH}/pet/${pet?.id}`,
    });
    expect(upstream.pets.has(pet?.id ?? -1)).toBe(false);

    expect((await doubt()).stdout).toMatch(new RegExp(`\\nundo ${receipt} petstore\\.addPet "`));
    const settled = await doubt('--applied', receipt);
    expect(settled.code).toBe(0);
    const reversal = /receipt (r_[\w-]+)\n$/.exec(settled.stderr)?.[1] as string;
    const sent = deletes();
    const retried = await parley('undo', url, receipt);
    expect(retried.code).toBe(0);
    expect(retried.stdout).toContain(reversal);
    expect(deletes()).toBe(sent);
  });

  it('refuses in one sentence and exit 2: contradictions, bad JSON, unknown ids, no state', async () => {
    const refusal = async (...args: string[]) => {
      const result = await runInProcess(['doubt', ...args], { PARLEY_HOME: folder.home });
      expect(result.code).toBe(2);
      expect(result.stdout).toBe('');
      return result.stderr;
    };
    const at = ['openapi', 'petstore', '--data', data];
    expect(await refusal(...at, '--applied', 'p_1', '--not-applied', 'p_1')).toBe(
      'parley: --applied and --not-applied contradict each other: give one of them\n',
    );
    expect(await refusal(...at, '--result', '{}')).toBe(
      'parley: --result goes with --applied: it is what the receipt records\n',
    );
    expect(await refusal(...at, '--applied', 'p_1', '--result', '{oops')).toContain(
      'parley: --result is not JSON: ',
    );
    expect(await refusal(...at, '--store', 'postgres://127.0.0.1/x')).toContain(
      '--store and --data both say where state lives',
    );
    expect(await refusal(...at, '--applied', 'p_nope')).toBe(
      'parley: nothing in doubt has the id p_nope: give a proposal id or a receipt id that parley doubt lists\n',
    );
    expect(await refusal('shop', '--data', join(folder.path, 'nowhere'))).toBe(
      `parley: no Parley store at ${join(folder.path, 'nowhere')}: parley serve shop makes it when it first starts (or give --data DIR, --store URL)\n`,
    );
    expect(existsSync(join(folder.path, 'nowhere'))).toBe(false);
    expect(await refusal('openapi')).toContain('openapi needs a document: parley doubt openapi');
    expect(await refusal('petshop')).toContain('no service "petshop": doubt calendar, shop');
  });
});
