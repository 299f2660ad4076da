import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CHILD_TEST_TIMEOUT_MS, killAll, runCli } from './fixtures/cli-process.js';
import { runInProcess } from './fixtures/in-process.js';
import { serveExample } from './fixtures/served-example.js';
import { tempFolder } from './fixtures/temp-home.js';

const folder = tempFolder();
const env = { PARLEY_HOME: folder.home };
/** A project folder outside the repository, with no @parley packages of its own. */
const project = join(folder.path, 'project');
mkdirSync(project, { recursive: true });
writeFileSync(join(project, 'package.json'), '{"type": "module"}\n');
const write = (name: string, text: string): string => {
  const path = join(project, name);
  writeFileSync(path, text);
  return path;
};

afterAll(() => {
  killAll();
  folder.remove();
});

const COUNTER = `
import { defineService } from '@parley/service';

export default function counter({ trust, store, log }) {
  const service = defineService({ id: 'counter.local', name: 'Counter', trust, store, log });
  service.ask('counter.read', {
    summary: 'The count',
    run: async (_params, ctx) => ({ count: (await ctx.data.get('count')) ?? 0 }),
  });
  return service;
}
`;

describe('parley serve ./module (issue 14)', { timeout: CHILD_TEST_TIMEOUT_MS }, () => {
  it('serves the factory a module exports, with the CLI’s own @parley packages, on --data', async () => {
    const module = write('counter.js', COUNTER);
    await runCli(['keys', 'init'], env);
    const served = await serveExample(
      module,
      ['--tcp', '127.0.0.1:0', '--data', join(folder.path, 'data')],
      env,
      1,
      'counter.local',
    );
    const url = served.addresses[0] as string;
    const answer = await runCli(['ask', url, 'counter.read'], env);
    expect(answer.stdout).toBe('count: 0\n');
    const stopped = await served.stop();
    expect(stopped.code).toBe(0);
    expect(stopped.stderr).toContain('trusting principal ed25519:');
  });

  it('refuses a module that does not export a factory, in one sentence naming the file (exit 2)', async () => {
    const refusal = async (name: string, text: string) => {
      const path = write(name, text);
      const result = await runInProcess(['serve', path], env);
      expect(result.code).toBe(2);
      return result.stderr.replace(path, name);
    };
    expect(await refusal('none.js', 'export const x = 1;')).toMatch(
      /^parley: none\.js has no default export: export default a function \(\{ trust, store, log \}\)/,
    );
    expect(await refusal('five.js', 'export default 5;')).toContain(
      "five.js's default export is not a function",
    );
    expect(
      await refusal(
        'built.js',
        "export default { info: { id: 'x', name: 'X' }, handle: async () => ({}) };",
      ),
    ).toContain(
      'built.js exports a service it built itself, so --trust, --data and --store cannot reach it',
    );
    expect(
      await refusal('throws.js', "export default () => { throw new Error('no config'); };"),
    ).toContain('throws.js failed to build its service: no config');
    expect(await refusal('broken.js', 'export default (')).toContain('cannot load broken.js: ');
    expect(
      await refusal('missing.js', "import '@parley/nothing';\nexport default () => 1;"),
    ).toContain("Cannot find package '@parley/nothing'");
    const absent = await runInProcess(['serve', './absent.ts'], env);
    expect(absent.stderr).toBe('parley: no file ./absent.ts\n');
  });

  it('§4.1.1 a list param spelled "[string]" or ["string"] is refused with the form to write', async () => {
    const tagged = (type: string) => `
import { defineService } from '@parley/service';
export default function tags({ trust, store, log }) {
  const service = defineService({ id: 'tags.local', name: 'Tags', trust, store, log });
  service.ask('tags.find', { summary: 'Find', params: { tags: ${type} }, run: (p) => p });
  return service;
}
`;
    for (const [name, type] of [
      ['quoted.js', "'[string]'"],
      ['array.js', "['string']"],
    ] as const) {
      const result = await runCli(['serve', write(name, tagged(type))], env);
      expect(result.code).toBe(2);
      expect(result.stderr).toMatch(
        /failed to build its service: tags\.find\.tags: .* is not a §4\.1\.1 type; for a list write "string\[\]" \(a type is one of string, int, number, bool, date, datetime, any/,
      );
    }
    const served = await runInProcess(
      ['serve', write('fine.js', tagged("'string[]'")), '--help'],
      env,
    );
    expect(served.code).toBe(0);
  });

  it('a TypeScript module in CommonJS scope is told how to become an ES module', async () => {
    const cjs = join(folder.path, 'cjs');
    mkdirSync(cjs);
    const path = join(cjs, 'svc.ts');
    writeFileSync(
      path,
      "import { defineService } from '@parley/service';\nexport default () => defineService;\n",
    );
    const result = await runCli(['serve', path], env);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(
      'svc.ts is loaded as CommonJS, which cannot import the @parley packages: name it .mts, or add "type": "module" to its package.json',
    );
  });
});
