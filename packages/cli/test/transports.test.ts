import { join } from 'node:path';
import { type ConnectOptions, connect, Wallet } from '@parley/client';
import {
  encodeGrant,
  generateKeyPair,
  issueGrant,
  type KeyPair,
  publicKeyString,
} from '@parley/protocol';
import { TransportError } from '@parley/transport';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { makeCertificate } from './fixtures/certificate.js';
import {
  CHILD_TEST_TIMEOUT_MS,
  killAll,
  killStarted,
  NODE_ARGS,
  runCli,
} from './fixtures/cli-process.js';
import { LineSocket } from './fixtures/line-socket.js';
import { type ServedExample, serveExample } from './fixtures/served-example.js';
import { tempFolder } from './fixtures/temp-home.js';

const folder = tempFolder();
const env = { PARLEY_HOME: folder.home };
let principal: KeyPair;
let wallet: Wallet;
let shop: ServedExample;
let certificate: ReturnType<typeof makeCertificate>;
let urls: { tcp: string; tls: string; http: string };

beforeAll(async () => {
  principal = await generateKeyPair();
  const agent = await generateKeyPair();
  const grant = await issueGrant(principal, {
    sub: publicKeyString(agent),
    caveats: [
      { svc: ['shop.example'] },
      { can: ['shop.*'] },
      { per: { max: 3000, currency: 'USD' } },
    ],
  });
  wallet = new Wallet(agent, { grants: [encodeGrant(grant)] });
  certificate = makeCertificate(folder.path);
  shop = await serveExample(
    'shop',
    [
      ...['--tcp', '127.0.0.1:0', '--tls', '127.0.0.1:0', '--http', '127.0.0.1:0'],
      ...['--cert', certificate.certFile, '--key', certificate.keyFile],
      ...['--data', join(folder.path, 'shop'), '--trust', publicKeyString(principal)],
    ],
    env,
    3,
  );
  const [tcp, tls, http] = shop.addresses as [string, string, string];
  urls = { tcp, tls, http };
}, CHILD_TEST_TIMEOUT_MS);
afterEach(() => killStarted());
afterAll(async () => {
  await shop?.stop();
  killAll();
  folder.remove();
});

/** The shop story through @parley/client: hello, ask, intent, commit, undo. */
async function story(url: string, options: ConnectOptions = {}): Promise<void> {
  const client = await connect(url, { wallet, expectService: 'shop.example', ...options });
  try {
    const answer = await client.ask('shop.search', { query: 'usb-c 1m' });
    expect(answer.data).toMatchObject({ items: [{ sku: 'cab-1b' }] });
    const reply = await client.intent('shop.order', { items: [{ sku: 'cab-1a', qty: 1 }] });
    if (reply.kind !== 'PROPOSALS') throw new Error(`expected PROPOSALS, got ${reply.kind}`);
    const [standard] = reply.proposals;
    if (standard === undefined) throw new Error('no proposal');
    const events: string[] = [];
    const receipt = await client.commit(standard, { onEvent: (e) => events.push(e.message) });
    expect(receipt.receipt.cost).toEqual(standard.cost);
    const undone = await client.undo(receipt.receipt);
    expect(undone.receipt.undoes).toBe(receipt.receipt.id);
  } finally {
    await client.close();
  }
}

describe('§2.3 every transport end to end against `parley serve shop`', {
  timeout: CHILD_TEST_TIMEOUT_MS,
}, () => {
  it('parley:// (TCP)', async () => {
    expect(urls.tcp).toMatch(/^parley:\/\/127\.0\.0\.1:\d+$/);
    await story(urls.tcp);
  });

  it('parleys:// (TLS, with a certificate made for this test)', async () => {
    expect(urls.tls).toMatch(/^parleys:\/\/127\.0\.0\.1:\d+$/);
    await story(urls.tls, { tls: { ca: certificate.cert } });
  });

  it('http:// (the §2.4 bridge at /parley), and GET discovery', async () => {
    expect(urls.http).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/parley$/);
    await story(urls.http);
    const brief = (await (await fetch(urls.http)).json()) as { kind: string };
    expect(brief.kind).toBe('BRIEF');
  });

  it('stdio: (the client starts `parley serve shop --stdio`)', async () => {
    await story('stdio:', {
      command: process.execPath,
      args: [
        ...NODE_ARGS,
        ...['serve', 'shop', '--stdio', '--data', join(folder.path, 'shop-stdio')],
        ...['--trust', publicKeyString(principal)],
      ],
      env: { ...process.env, ...env },
      stderr: 'ignore',
    });
  });

  it('the CLI verbs work over TLS with --ca, and a TLS failure is one sentence, exit 2', async () => {
    const hello = await runCli(['hello', urls.tls, '--ca', certificate.certFile], env);
    expect(hello.code).toBe(0);
    expect(hello.stdout).toMatch(/^# Example Shop \(shop\.example\)/);
    const untrusted = await runCli(['hello', urls.tls], env);
    expect(untrusted.code).toBe(2);
    expect(untrusted.stderr).toMatch(/^parley: TLS with .* failed/);
    const bridged = await runCli(['ask', urls.http, 'shop.search', 'query=ssd'], env);
    expect(bridged.code).toBe(0);
    expect(bridged.stdout).toContain('SSD 1TB');
  });

  it('a TLS client without the CA is refused locally with TransportError tls', async () => {
    await expect(connect(urls.tls, { expectService: 'shop.example' })).rejects.toSatisfy(
      (error) => error instanceof TransportError && error.reason === 'tls',
    );
  });
});

describe('bad input: bounded refusals, and the server keeps serving others', {
  timeout: CHILD_TEST_TIMEOUT_MS,
}, () => {
  it('garbage bytes, a frame over 1 MiB, a half frame and a flood', async () => {
    const raw = await LineSocket.open(urls.tcp);
    try {
      raw.write(Buffer.from([0xff, 0xfe, 0x00, 0x0a]));
      expect(await raw.next()).toMatchObject({ kind: 'ERROR', code: 'bad_frame' });
      raw.write('{"parley":1,"id":"x","verb":"NOPE"}\n');
      expect(await raw.next()).toMatchObject({ kind: 'ERROR', code: 'bad_frame', re: 'x' });
      raw.write(`${'x'.repeat(1_100_000)}\n`);
      expect(await raw.next()).toMatchObject({ kind: 'ERROR', code: 'bad_frame' });
      // The connection is still usable after each refusal (§2.1).
      raw.write('{"parley":1,"id":"h","verb":"HELLO"}\n');
      expect(await raw.next()).toMatchObject({ kind: 'BRIEF', re: 'h' });

      // A flood on one connection: every request gets exactly one final reply (some may be limit).
      const FLOOD = 400;
      let text = '';
      for (let i = 0; i < FLOOD; i++) {
        text += `${JSON.stringify({ parley: 1, id: `f${i}`, verb: 'ASK', capability: 'shop.search', params: {} })}\n`;
      }
      raw.write(text);
      const kinds = new Map<string, number>();
      for (let i = 0; i < FLOOD; i++) {
        const reply = await raw.next();
        const key = reply.kind === 'ERROR' ? String(reply.code) : String(reply.kind);
        kinds.set(key, (kinds.get(key) ?? 0) + 1);
      }
      expect([...kinds.keys()].every((k) => k === 'ANSWER' || k === 'limit')).toBe(true);

      // Half a frame, left hanging; meanwhile another connection is served normally.
      raw.write('{"parley":1,"id":"half","verb":"HEL');
      await story(urls.tcp);
    } finally {
      raw.close();
    }
  });

  it('SIGTERM stops `parley serve` cleanly: exit 0', async () => {
    const second = await serveExample(
      'calendar',
      ['--tcp', '127.0.0.1:0', '--http', '127.0.0.1:0', '--data', join(folder.path, 'cal')],
      env,
      2,
    );
    const client = await connect(second.addresses[0] as string);
    expect((await client.hello()).service.id).toBe('cal.example.com');
    await client.close();
    const stopped = await second.stop();
    expect(stopped.code).toBe(0);
    expect(stopped.stderr).toContain('stopped calendar');
  });
});
