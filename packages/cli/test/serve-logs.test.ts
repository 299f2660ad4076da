import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { PetstoreUpstream } from '../../openapi/test/petstore-upstream.js';
import { CHILD_TEST_TIMEOUT_MS, killAll, runCli } from './fixtures/cli-process.js';
import { serveExample } from './fixtures/served-example.js';
import { tempFolder } from './fixtures/temp-home.js';
import { runCliAtTerminal } from './fixtures/terminal.js';

const UPSTREAM_SECRET = 'pk_live_51HxLogScanKey0077';
const folder = tempFolder();
const env = { PARLEY_HOME: folder.home, PETSTORE_KEY: UPSTREAM_SECRET };
afterAll(() => {
  killAll();
  folder.remove();
});

/** What a request line may hold: nothing else, so no frame field can slip in. */
const REQUEST_FIELDS = [
  'time',
  'level',
  'msg',
  'service',
  'id',
  'verb',
  'capability',
  'outcome',
  'durationMs',
  'peer',
].sort();

/**
 * Every secret the agent's home holds: the wallet's grants (consents too) and the private key
 * material of the key files (long base64url runs that are not the public keys).
 */
function homeSecrets(publicKeys: readonly string[]): string[] {
  const wallet = JSON.parse(readFileSync(join(folder.home, 'grants.json'), 'utf8')) as {
    grants: (string | { token?: string })[];
  };
  const secrets = wallet.grants.map((g) => (typeof g === 'string' ? g : (g.token ?? '')));
  for (const file of readdirSync(folder.home).filter((name) => name.endsWith('.key'))) {
    const text = readFileSync(join(folder.home, file), 'utf8');
    // The key material itself: every long base64url run in the key file.
    secrets.push(...(text.match(/[\w-]{32,}/g) ?? []));
  }
  return secrets.filter((s) => s.length >= 32 && !publicKeys.some((key) => key.endsWith(s)));
}

/** The log lines that are JSON objects, parsed; every line must be one. */
function jsonLines(stderr: string): Record<string, unknown>[] {
  const lines = stderr.split('\n').filter((line) => line.startsWith('{'));
  return lines.map((line) => JSON.parse(line) as Record<string, unknown>);
}

describe('parley serve --log-format json: one line per request, and no secret (issue 26)', {
  timeout: CHILD_TEST_TIMEOUT_MS * 2,
}, () => {
  it('logs a whole session (intent, commit with consent, undo) without a grant, proof, key or consent token', async () => {
    await runCli(['keys', 'init'], env);
    await runCli(['grant', '--svc', 'shop.example', '--can', 'shop.*', '--per', '30.00:USD'], env);
    const shop = await serveExample(
      'shop',
      ['--tcp', '127.0.0.1:0', '--data', join(folder.path, 'shop'), '--log-format', 'json'],
      env,
      1,
    );
    const url = shop.addresses[0] as string;
    const intent = await runCli(
      ['intent', url, 'shop.order', 'items:=[{"sku":"aud-5a","qty":1}]', 'delivery=express'],
      env,
    );
    const proposal = /\[(p_[\w-]+)\]/.exec(intent.stdout)?.[1] as string;
    expect((await runCli(['commit', url, proposal], env)).code).toBe(3);
    const approved = await runCliAtTerminal(['approve', proposal], env, /Approve\? \[y\/N\] /, 'y');
    expect(approved.code).toBe(0);
    const commit = await runCli(['commit', url, proposal], env);
    expect(commit.code).toBe(0);
    const receipt = /\(receipt (r_[\w-]+)\)/.exec(commit.stdout)?.[1] as string;
    expect((await runCli(['undo', url, receipt], env)).code).toBe(0);
    const { code, stderr } = await shop.stop();
    expect(code).toBe(0);

    const requests = jsonLines(stderr).filter((line) => line.msg === 'request');
    const summary = requests.map((r) => `${r.verb} ${r.capability ?? '-'} ${r.outcome}`);
    expect(summary).toEqual(
      expect.arrayContaining([
        'INTENT shop.order proposals',
        'COMMIT - consent_required',
        'COMMIT shop.order receipt',
        'UNDO shop.order receipt',
      ]),
    );
    for (const request of requests) {
      expect(Object.keys(request).sort()).toEqual(
        REQUEST_FIELDS.filter((f) => f !== 'capability' || 'capability' in request),
      );
      expect(request.level).toBe('info');
      expect(typeof request.durationMs).toBe('number');
      expect(typeof request.id).toBe('string');
    }
    const who = JSON.parse((await runCli(['whoami', '--json'], env)).stdout) as {
      principal: string;
      agent: string;
    };
    const secrets = homeSecrets([who.principal, who.agent]);
    // The grant, the consent grant the approval added, and both keys' material.
    expect(secrets.length).toBeGreaterThanOrEqual(4);
    for (const secret of secrets) expect(stderr).not.toContain(secret);
    // A proof (§6.5) or any other token travels as a long base64url run: none is logged, save
    // public keys ("ed25519:…": the service's receipt key, §E1) and the trusted principal's.
    const runs = stderr.match(/(?<![\w-]|ed25519:)[\w-]{40,}/g) ?? [];
    const principal = who.principal.replace('ed25519:', '');
    expect(runs.filter((run) => run !== principal)).toEqual([]);
    // In json format every line is a JSON object: the startup and stop lines too.
    expect(stderr.split('\n').filter((line) => line !== '' && !line.startsWith('{'))).toEqual([]);
  });

  it('never logs the upstream credential of an OpenAPI service', async () => {
    const upstream = new PetstoreUpstream(UPSTREAM_SECRET);
    const origin = await upstream.start();
    upstream.pets.set(1, { id: 1, name: 'Rex', photoUrls: [], status: 'available' });
    try {
      await runCli(['grant', '--svc', 'petstore.swagger.io', '--can', 'petstore.*'], env);
      const petstore = await serveExample(
        'openapi',
        ['petstore', '--upstream', origin, '--auth-env', 'PETSTORE_KEY', '--tcp', '127.0.0.1:0'],
        { ...env },
        1,
        'petstore.swagger.io',
      );
      const url = petstore.addresses[0] as string;
      const asked = await runCli(['ask', url, 'petstore.getPetById', 'petId=1'], env);
      expect(asked.code, asked.stderr).toBe(0);
      // The upstream answers only with its api_key: the service did send the credential.
      expect(asked.stdout).toContain('Rex');
      const { stderr } = await petstore.stop();
      // Text is the default format: the request line is there, the credential is not.
      expect(stderr).toMatch(/\[petstore\.swagger\.io\] ASK petstore\.getPetById → answer in /);
      expect(stderr).not.toContain(UPSTREAM_SECRET);
    } finally {
      await upstream.close();
    }
  });
});
