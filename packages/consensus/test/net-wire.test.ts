import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  floatValue,
  HardConstraint,
  hashOption,
  hashOptionList,
  PreferenceSheet,
  type PyObject,
  parsePyJson,
  publicKeyHex,
  verdictPayload,
} from '../src/index.js';
import {
  Delegate,
  type DelegateOptions,
  type DelegateServer,
  MAX_BODY,
  serveDelegate,
} from '../src/net/index.js';
import { verifyHex } from '../src/signing/keys.js';
import { calendarSheets, RED_LINE_NAMES, SLOTS } from './fixtures/calendars.js';
import { httpRequest, rawExchange } from './fixtures/http.js';
import { testKey } from './fixtures/keys.js';

const TOKEN = 's3cret-token';
const bearer = (token = TOKEN) => ({ Authorization: `Bearer ${token}` });
const GOOD = JSON.stringify({ option: { day: 'tue', hour: 14 } });
const servers: DelegateServer[] = [];
const logged: string[] = [];
let ana: DelegateServer;
let anaKey = '';

/**
 * A delegate on 127.0.0.1. It answers outside sessions too (`sessionless`) unless told otherwise:
 * that is the reference's wire, which these tests check field by field.
 */
async function start(
  options: Parameters<typeof serveDelegate>[1] = {},
  sheet = calendarSheets()[0] as PreferenceSheet<PyObject>,
  key: 'signed' | 'unsigned' = 'signed',
  delegate: Omit<DelegateOptions, 'key'> = { sessionless: true },
): Promise<DelegateServer> {
  const served = new Delegate(sheet, {
    key: key === 'signed' ? await testKey(1) : null,
    onSheetError: (e) => logged.push(String(e)),
    ...delegate,
  });
  const server = await serveDelegate(served, { log: (l) => logged.push(l), ...options });
  servers.push(server);
  return server;
}

beforeAll(async () => {
  // No limit on failed attempts here: the probing tests below count 401s; the limit has its own.
  ana = await start({ token: TOKEN, failedRate: null });
  anaKey = publicKeyHex(await testKey(1));
});
afterAll(async () => {
  await Promise.all(servers.map((s) => s.close()));
});

describe('the wire of parley-consensus (bot.py, client.py, identity.py), field by field', () => {
  it('GET /card: owner, protocol, key, and our protocols and limits; no token needed, no sheet', async () => {
    const card = await httpRequest(ana.url, '/card');
    expect(card.status).toBe(200);
    expect(card.headers['content-type']).toBe('application/json');
    expect(card.text).toBe(
      `{"owner": "Ana", "protocol": "parley/0.1", "pubkey_hex": "${anaKey}", "protocols": ["parley/0.1", "parley/0.2"], "limits": {"session_required": false, "options_fixed": true, "asks_per_option": 1, "owner_list": false}}`,
    );
  });

  it('POST /consider: the masked verdict in the reference order, signed over Python-canonical bytes', async () => {
    const answer = await httpRequest(ana.url, '/consider', { body: GOOD, headers: bearer() });
    expect(answer.status).toBe(200);
    const sig = /"sig": "([0-9a-f]{128})"/.exec(answer.text)?.[1] ?? '';
    expect(answer.text).toBe(
      `{"owner": "Ana", "acceptable": true, "score": 1.0, "reason": "ok", "sig": "${sig}", "pubkey_hex": "${anaKey}"}`,
    );
    const signed = new TextEncoder().encode(
      '{"acceptable": true, "option": {"day": "tue", "hour": 14}, "owner": "Ana", "reason": "ok", "score": 1.0, "type": "verdict/0.1"}',
    );
    expect(await verifyHex(anaKey, signed, sig)).toBe(true);
    // A red line scores 0.0, and says nothing of which.
    const blocked = await httpRequest(ana.url, '/consider', {
      body: '{"option": {"day": "mon", "hour": 9}}',
      headers: bearer(),
    });
    expect(blocked.text).toMatch(
      /^\{"owner": "Ana", "acceptable": false, "score": 0\.0, "reason": "red-line", "sig": "[0-9a-f]{128}", "pubkey_hex": "[0-9a-f]{64}"\}$/,
    );
  });

  it('keeps the option as Python types it: 14.0 is signed as a float, 14 as an int', async () => {
    const answer = await httpRequest(ana.url, '/consider', {
      body: '{"option": {"day": "tue", "hour": 14.0}}',
      headers: bearer(),
    });
    const sig = /"sig": "([0-9a-f]{128})"/.exec(answer.text)?.[1] ?? '';
    const said = parsePyJson(answer.text) as PyObject;
    const verdict = {
      owner: 'Ana',
      acceptable: said.acceptable as boolean,
      score: floatValue(said.score) ?? -1,
      reason: said.reason as 'ok' | 'red-line',
    };
    const float = verdictPayload(parsePyJson('{"day": "tue", "hour": 14.0}'), verdict);
    const int = verdictPayload({ day: 'tue', hour: 14 }, verdict);
    expect(await verifyHex(anaKey, float, sig)).toBe(true);
    expect(await verifyHex(anaKey, int, sig)).toBe(false);
  });

  it('escapes a non-ASCII owner on the wire as Python does, and signs it literally', async () => {
    const zoe = await start({}, new PreferenceSheet<PyObject>('Zoë'));
    const card = await httpRequest(zoe.url, '/card');
    expect(card.text.startsWith('{"owner": "Zo\\u00eb", ')).toBe(true);
    const answer = await httpRequest(zoe.url, '/consider', { body: '{"option": {"é": 1}}' });
    const sig = /"sig": "([0-9a-f]{128})"/.exec(answer.text)?.[1] ?? '';
    const signed = new TextEncoder().encode(
      '{"acceptable": true, "option": {"é": 1}, "owner": "Zoë", "reason": "ok", "score": 0.5, "type": "verdict/0.1"}',
    );
    expect(await verifyHex(anaKey, signed, sig)).toBe(true);
  });

  it('an unsigned delegate sends no key and no signature fields', async () => {
    const plain = await start({}, undefined, 'unsigned');
    expect((await httpRequest(plain.url, '/card')).text).toBe(
      '{"owner": "Ana", "protocol": "parley/0.1"}',
    );
    expect((await httpRequest(plain.url, '/consider', { body: GOOD })).text).toBe(
      '{"owner": "Ana", "acceptable": true, "score": 1.0, "reason": "ok"}',
    );
  });

  it('POST /session, then verdict/0.2 signatures that bind the nonce, the roster and the options', async () => {
    const roster = { Ana: anaKey };
    const option_hashes = [hashOption({ day: 'tue', hour: 14 })];
    const opened = await httpRequest(ana.url, '/session', {
      body: JSON.stringify({ nonce: 'nonce-1', roster, option_hashes }),
      headers: bearer(),
    });
    expect(opened).toMatchObject({ status: 200, text: '{"session": "nonce-1", "owner": "Ana"}' });
    const answer = await httpRequest(ana.url, '/consider', {
      body: '{"option": {"day": "tue", "hour": 14}, "session": "nonce-1"}',
      headers: bearer(),
    });
    const sig = /"sig": "([0-9a-f]{128})"/.exec(answer.text)?.[1] ?? '';
    const optionsSha = hashOptionList(option_hashes);
    const signed = new TextEncoder().encode(
      `{"acceptable": true, "nonce": "nonce-1", "option": {"day": "tue", "hour": 14}, "options_sha256": "${optionsSha}", "owner": "Ana", "reason": "ok", "roster": {"Ana": "${anaKey}"}, "score": 1.0, "type": "verdict/0.2"}`,
    );
    expect(await verifyHex(anaKey, signed, sig)).toBe(true);
    const unknown = await httpRequest(ana.url, '/consider', {
      body: '{"option": {"day": "tue", "hour": 14}, "session": "nonce-2"}',
      headers: bearer(),
    });
    expect(unknown).toMatchObject({ status: 400, text: '{"error": "unknown session"}' });
    const foreign = await httpRequest(ana.url, '/session', {
      body: JSON.stringify({
        nonce: 'nonce-3',
        roster: { Ana: publicKeyHex(await testKey(9)) },
        option_hashes,
      }),
      headers: bearer(),
    });
    expect(foreign).toMatchObject({ status: 400, text: '{"error": "invalid session"}' });
  });

  it('a delegate that requires sessions says so on its card and answers nothing outside one', async () => {
    const strict = await start({}, undefined, 'signed', {});
    expect(parsePyJson((await httpRequest(strict.url, '/card')).text)).toMatchObject({
      protocols: ['parley/0.2'],
      limits: { session_required: true, options_fixed: true, asks_per_option: 1 },
    });
    const answer = await httpRequest(strict.url, '/consider', { body: GOOD });
    expect(answer).toMatchObject({ status: 403, text: '{"error": "session required"}' });
  });
});

describe('red team: probing a delegate (tests/test_redteam.py and test_net_hardening.py, and more)', () => {
  it('no token, or any near miss, learns nothing: 401 and the same body for every option', async () => {
    const misses = [
      undefined,
      'Bearer wrong',
      'Bearer ',
      'Bearer',
      TOKEN,
      `bearer ${TOKEN}`,
      `Bearer ${TOKEN}x`,
      `Bearer ${TOKEN.slice(0, -1)}`,
      `Bearer  ${TOKEN}`,
      `Basic ${TOKEN}`,
    ];
    for (const header of misses) {
      for (const option of SLOTS) {
        const answer = await httpRequest(ana.url, '/consider', {
          body: JSON.stringify({ option }),
          headers: header === undefined ? {} : { Authorization: header },
        });
        expect(answer).toMatchObject({ status: 401, text: '{"error": "unauthorized"}' });
      }
    }
    // Before any work: a body that is not JSON, or never sent at all, still gets 401.
    const garbage = await httpRequest(ana.url, '/consider', { body: 'not json at all' });
    expect(garbage.status).toBe(401);
    const unsent = await rawExchange(
      ana.url,
      'POST /consider HTTP/1.1\r\nHost: x\r\nContent-Length: 1000000\r\n\r\n',
    );
    expect(unsent).toMatch(/^HTTP\/1\.1 401 /);
    expect(unsent).toContain('{"error": "unauthorized"}');
  });

  it('enumeration is throttled: 429 within the window, before the body is read', async () => {
    const limited = await start({ token: TOKEN, rate: { max: 5, windowMs: 60_000 } });
    const codes: number[] = [];
    for (let i = 0; i < 12; i++) {
      const answer = await httpRequest(limited.url, '/consider', { body: GOOD, headers: bearer() });
      codes.push(answer.status);
      if (answer.status === 429) {
        expect(answer.text).toBe('{"error": "rate limited"}');
        expect(Number(answer.headers['retry-after'])).toBeGreaterThan(0);
      }
    }
    expect(codes).toEqual([200, 200, 200, 200, 200, ...Array(7).fill(429)]);
    const unsent = await rawExchange(
      limited.url,
      `POST /consider HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${TOKEN}\r\nContent-Length: 100000\r\n\r\n`,
    );
    expect(unsent).toMatch(/^HTTP\/1\.1 429 /);
  });

  it('caps the body at 4096 bytes: 413 before reading, the cap itself is read', async () => {
    const pad = MAX_BODY - JSON.stringify({ option: { day: 'tue', hour: 14, p: '' } }).length;
    const atCap = JSON.stringify({ option: { day: 'tue', hour: 14, p: 'x'.repeat(pad) } });
    expect(Buffer.byteLength(atCap)).toBe(MAX_BODY);
    expect(
      (await httpRequest(ana.url, '/consider', { body: atCap, headers: bearer() })).status,
    ).toBe(200);
    const over = await httpRequest(ana.url, '/consider', { body: `${atCap} `, headers: bearer() });
    expect(over).toMatchObject({ status: 413, text: '{"error": "payload too large"}' });
    const unsent = await rawExchange(
      ana.url,
      `POST /consider HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${TOKEN}\r\nContent-Length: 9000\r\n\r\n`,
    );
    expect(unsent).toMatch(/^HTTP\/1\.1 413 /);
    // A chunked body has no length to check up front: it is counted, and cut at the cap.
    const chunk = 'x'.repeat(3000);
    const chunked = await rawExchange(
      ana.url,
      `POST /consider HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${TOKEN}\r\nTransfer-Encoding: chunked\r\n\r\n${(3000).toString(16)}\r\n${chunk}\r\n${(3000).toString(16)}\r\n${chunk}\r\n`,
    );
    expect(chunked).toMatch(/^HTTP\/1\.1 413 /);
  });

  it('a client that says Expect: 100-continue learns of the 401 before it sends its body', async () => {
    const answer = await rawExchange(
      ana.url,
      'POST /consider HTTP/1.1\r\nHost: x\r\nExpect: 100-continue\r\nContent-Length: 50\r\n\r\n',
    );
    expect(answer).toMatch(/^HTTP\/1\.1 401 /);
    expect(answer).not.toContain('100 Continue');
  });

  it('a malformed body is a 400 that names no constraint, never a verdict', async () => {
    const bodies: (string | Buffer)[] = [
      '',
      '{not json',
      Buffer.from([0xff, 0xfe, 0x00]),
      '[]',
      '"option"',
      '{}',
      '{"option": [1, 2]}',
      '{"option": "tue"}',
      '{"option": null}',
      '{"option": {"hour": NaN}}',
      '{"option": {"hour": Infinity}}',
      '{"option": {"day": "\\ud800"}}',
      '{"option": {"day": "tue"}, "session": 7}',
    ];
    for (const body of bodies) {
      const answer = await httpRequest(ana.url, '/consider', { body, headers: bearer() });
      expect(answer.status, String(body)).toBe(400);
      expect(['{"error": "invalid option"}', '{"error": "invalid session"}']).toContain(
        answer.text,
      );
    }
    for (const length of ['abc', '-1', '1e3']) {
      const answer = await rawExchange(
        ana.url,
        `POST /consider HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${TOKEN}\r\nContent-Length: ${length}\r\n\r\n{}`,
      );
      expect(answer, length).toMatch(/^HTTP\/1\.1 400 /);
      expect(answer).not.toContain('"acceptable"');
    }
  });

  it('an option the sheet throws on is a red line, not a crash, and the error stays home', async () => {
    const strict = new PreferenceSheet<PyObject>('Ana', {
      hard: [
        new HardConstraint('budget-cap-SECRET', (o) => {
          if (typeof o.cost !== 'number') throw new TypeError('budget-cap-SECRET needs a cost');
          return o.cost <= 700;
        }),
      ],
    });
    const server = await start({}, strict);
    const before = logged.length;
    const answer = await httpRequest(server.url, '/consider', {
      body: '{"option": {"foo": "bar"}}',
    });
    expect(answer.status).toBe(200);
    expect(answer.text).toMatch(/"acceptable": false, "score": 0\.0, "reason": "red-line"/);
    expect(answer.text).not.toContain('SECRET');
    expect(logged.slice(before).join('\n')).toContain('budget-cap-SECRET');
  });

  it('answers 404 to anything else, never a 5xx, and never shows the sheet', async () => {
    const probes: [string, string, string | undefined][] = [
      ['GET', '/sheet', undefined],
      ['GET', '/card/../sheet', undefined],
      ['GET', '/card?x=1', undefined],
      ['POST', '/card', GOOD],
      ['GET', '/consider', undefined],
      ['PUT', '/consider', GOOD],
      ['DELETE', '/card', undefined],
      ['HEAD', '/card', undefined],
      ['OPTIONS', '/consider', undefined],
    ];
    for (const [method, path, body] of probes) {
      const answer = await httpRequest(ana.url, path, {
        method,
        headers: bearer(),
        ...(body === undefined ? {} : { body }),
      });
      expect(answer.status, `${method} ${path}`).toBe(404);
    }
    for (const option of SLOTS) {
      const answer = await httpRequest(ana.url, '/consider', {
        body: JSON.stringify({ option }),
        headers: bearer(),
      });
      expect(answer.status).toBe(200);
      for (const name of RED_LINE_NAMES) expect(answer.text).not.toContain(name);
    }
  });

  it('drops a client that stalls mid-body, and keeps serving everyone else', async () => {
    const server = await start({ requestTimeoutMs: 300 });
    const stalled = rawExchange(
      server.url,
      'POST /consider HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\n{',
      5000,
    );
    expect((await httpRequest(server.url, '/card')).status).toBe(200);
    const answer = await stalled;
    expect(answer).not.toContain('"acceptable"');
    expect(answer === '' || /^HTTP\/1\.1 408 /.test(answer)).toBe(true);
  });
});
