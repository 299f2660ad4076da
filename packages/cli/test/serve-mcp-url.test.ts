import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveConsensusMcp } from '../../mcp/src/consensus/serve-consensus.js';
import { newBearerToken } from '../../mcp/src/serve/bearer-token.js';
import type { RunningMcpServer } from '../../mcp/src/serve/stdio.js';
import { mcpServerName } from '../src/serve/mcp-server-name.js';
import { CHILD_TEST_TIMEOUT_MS, killAll, runCli } from './fixtures/cli-process.js';
import { serveExample } from './fixtures/served-example.js';
import { tempFolder } from './fixtures/temp-home.js';

// Issue 23: `parley serve mcp --url URL [--auth-header NAME --auth-env VAR]`, end to end. The
// upstream is `parley consensus-mcp --http` (it requires `Authorization: Bearer TOKEN`); a proxy
// in front of it takes the credential in a header of another name instead, as many hosted MCP
// servers do (`X-Api-Key`), so the header --auth-header names is what carries it.

const TOKEN = newBearerToken();
const API_KEY = newBearerToken();
const folder = tempFolder();
/** The credentials reach the CLI only through its environment, never its arguments. */
const env = { PARLEY_HOME: folder.home, UPSTREAM_TOKEN: TOKEN, UPSTREAM_KEY: API_KEY };
/** The X-Api-Key header of every request that reached the proxy. */
const seenKeys: (string | undefined)[] = [];
let upstream: RunningMcpServer & { url?: string };
let proxy: Server;
let direct = '';
let proxied = '';

/** Passes a request with the right X-Api-Key on as a bearer request; refuses the rest (401). */
function keyedProxy(target: URL): Server {
  return createServer((req, res) => {
    const key = req.headers['x-api-key'];
    seenKeys.push(typeof key === 'string' ? key : undefined);
    if (key !== API_KEY) {
      res.writeHead(401, { 'content-type': 'text/plain' }).end('missing or wrong X-Api-Key');
      return;
    }
    const { 'x-api-key': _, ...headers } = req.headers;
    const forward = request(
      {
        host: target.hostname,
        port: target.port,
        path: req.url,
        method: req.method,
        headers: { ...headers, authorization: `Bearer ${TOKEN}` },
      },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    req.pipe(forward);
  });
}

beforeAll(async () => {
  await runCli(['keys', 'init'], env);
  upstream = await serveConsensusMcp({
    http: { host: '127.0.0.1', port: 0, token: TOKEN },
    onError: () => {},
  });
  direct = upstream.url as string;
  const target = new URL(direct);
  proxy = keyedProxy(target);
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  proxied = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}${target.pathname}`;
}, CHILD_TEST_TIMEOUT_MS);

afterAll(async () => {
  killAll();
  await new Promise<void>((resolve) => proxy?.close(() => resolve()));
  await upstream?.close();
  folder.remove();
});

/** `parley serve mcp ARGS…` on a free port, its address, and `parley hello` there. */
async function servedBrief(args: readonly string[], name: string) {
  const served = await serveExample('mcp', ['--tcp', '127.0.0.1:0', ...args], env, 1, name);
  const hello = await runCli(['hello', served.addresses[0] as string], env);
  return { hello: hello.stdout, stopped: await served.stop() };
}

describe('parley serve mcp --url (issue 23)', { timeout: CHILD_TEST_TIMEOUT_MS }, () => {
  it('--auth-env alone sends the credential as a bearer token', async () => {
    const { hello, stopped } = await servedBrief(
      ['--url', direct, '--auth-env', 'UPSTREAM_TOKEN'],
      mcpServerName([], direct),
    );
    expect(hello).toContain('ask parley_decide(');
    expect(hello).toContain('ask parley_check_party(');
    expect(stopped.code).toBe(0);
  });

  it('--auth-header NAME --auth-env VAR sends it in that header, on every request', async () => {
    seenKeys.length = 0;
    const { hello, stopped } = await servedBrief(
      [
        '--url',
        proxied,
        '--auth-header',
        'X-Api-Key',
        '--auth-env',
        'UPSTREAM_KEY',
        '--name',
        'hosted',
      ],
      'hosted',
    );
    expect(hello).toMatch(/^# parley-consensus \(hosted\)$/m);
    expect(hello).toContain('ask parley_verify_receipt(');
    expect(stopped.code).toBe(0);
    expect(seenKeys.length).toBeGreaterThan(0);
    expect(seenKeys.every((key) => key === API_KEY)).toBe(true);
  });

  it('a credential the server refuses stops the start with one sentence, exit 2', async () => {
    const refused = await runCli(
      ['serve', 'mcp', '--tcp', '127.0.0.1:0', '--url', proxied, '--auth-header', 'X-Api-Key'],
      { ...env, UPSTREAM_KEY: 'not-the-key' },
    );
    expect(refused.stderr).toBe(
      'parley: --auth-header needs --auth-env VAR: the credential is read from the environment\n',
    );
    const wrong = await runCli(
      [
        'serve',
        'mcp',
        '--tcp',
        '127.0.0.1:0',
        '--url',
        proxied,
        '--auth-header',
        'X-Api-Key',
        '--auth-env',
        'UPSTREAM_KEY',
      ],
      { ...env, UPSTREAM_KEY: 'not-the-key' },
    );
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toMatch(
      new RegExp(
        `^parley: cannot connect to the MCP server at ${proxied.replaceAll('.', '\\.')}: `,
      ),
    );
    expect(wrong.stderr).not.toContain('not-the-key');
    const unset = await runCli(
      ['serve', 'mcp', '--url', proxied, '--auth-env', 'NO_SUCH_VARIABLE'],
      env,
    );
    expect(unset.code).toBe(2);
    expect(unset.stderr).toBe(
      "parley: NO_SUCH_VARIABLE is not set: export NO_SUCH_VARIABLE=… with the server's credential\n",
    );
  });
});
