import {
  type EventReply,
  generateKeyPair,
  ParleyError,
  type Proposal,
  type ProposalsReply,
  publicKeyString,
  renderLens,
} from '@parley/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOpenApiService } from '../src/index.js';
import { keyForms, revealed } from './key-forms.js';
import { type ServedAgent, serveWithAgent } from './parley-agent.js';
import { type Answer, type Arrived, ScriptedUpstream } from './scripted-upstream.js';

/** Keys with every character a JSON, URL or base64 encoder treats specially: / + = " \ */
const API_KEY = 'sk_live_4eC/39+Hq=LyT"jW\\zdp7dcQ8';
const PASSWORD = 'pa/ss+w=rd"\\x9Qz-71';
const BASIC = `octo:${PASSWORD}`;

const text = { type: 'string' };
const ok = { '200': { description: 'ok' } };
const document = (scheme: object) => ({
  openapi: '3.1.0',
  info: { title: 'Things', version: '1', 'x-parley-prefix': 'things' },
  components: { securitySchemes: { auth: scheme } },
  paths: {
    '/things': {
      post: {
        operationId: 'addThing',
        'x-parley-undo': { operationId: 'dropThing', parameters: { id: '$response.body#/id' } },
        requestBody: {
          required: true,
          content: {
            'application/json': { schema: { type: 'object', properties: { name: text } } },
          },
        },
        responses: ok,
      },
    },
    '/things/{id}': {
      parameters: [{ name: 'id', in: 'path', required: true, schema: text }],
      get: { operationId: 'getThing', responses: ok },
      head: { operationId: 'headThing', responses: ok },
      put: {
        operationId: 'putThing',
        requestBody: {
          required: true,
          content: {
            'application/json': { schema: { type: 'object', properties: { name: text } } },
          },
        },
        responses: ok,
      },
      delete: { operationId: 'dropThing', responses: ok },
    },
    '/fail/{form}': {
      parameters: [{ name: 'form', in: 'path', required: true, schema: text }],
      get: { operationId: 'fail', responses: ok },
    },
  },
});

/**
 * An upstream that echoes its credential back in every form it can think of: in JSON bodies,
 * in an ETag, a Location, a reason phrase and a plain-text error body. `secrets` are the texts
 * whose forms it echoes besides the credential header itself.
 */
function careless(secrets: string[]): ScriptedUpstream {
  return new ScriptedUpstream((request: Arrived): Answer => {
    const header = String(request.headers['x-api-key'] ?? request.headers.authorization ?? '');
    const forms: Record<string, string> = { header };
    for (const [i, secret] of secrets.entries()) {
      for (const [name, form] of Object.entries(keyForms(secret))) forms[`${name}${i}`] = form;
    }
    const json = (status: number, value: unknown, headers: Record<string, string> = {}) => ({
      status,
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify(value),
    });
    const [method, target = ''] = request.requestLine.split(' ');
    const fail = /^\/fail\/(\w+)$/.exec(target);
    if (fail !== null) {
      const form = forms[fail[1] as string] ?? '';
      return {
        status: 400,
        statusText: `Bad key ${form}`,
        headers: { 'content-type': 'text/plain' },
        body: `key ${form} refused`,
      };
    }
    const etag = `"${keyForms(secrets[0] as string).base64url}"`;
    if (method === 'POST') {
      return json(201, { id: 't7', forms }, { location: `/things/t7?k=${forms.percent0}` });
    }
    if (method === 'HEAD') return { status: 200, headers: { etag, 'content-type': 'text/plain' } };
    if (target === '/things/t8' && method === 'PUT') return json(409, { raw: forms.raw0 });
    return json(200, { id: 't7', forms, dump: keyForms(JSON.stringify(forms)).base64 }, { etag });
  });
}

type Setup = { upstream: ScriptedUpstream; served: ServedAgent; outputs: string[] };

async function setUp(scheme: object, secret: string, echoed: string[]): Promise<Setup> {
  const upstream = careless(echoed);
  const outputs: string[] = [];
  const principal = await generateKeyPair();
  const made = await createOpenApiService({
    document: document(scheme),
    upstream: await upstream.start(),
    auth: { secret },
    trust: [publicKeyString(principal)],
    log: (message, error) => outputs.push(message, String(error), (error as Error).stack ?? ''),
  });
  const served = await serveWithAgent(made.service, principal, ['things.*']);
  return { upstream, served, outputs };
}

/** Every reply, its Lens, every error and every progress event of a full round of requests. */
async function everything({ served, outputs }: Setup, forms: string[]): Promise<string> {
  const { client } = served;
  const onEvent = (event: EventReply) => outputs.push(JSON.stringify(event), renderLens(event));
  const seen = <T extends object>(reply: T): T => {
    outputs.push(JSON.stringify(reply), renderLens(reply as never));
    return reply;
  };
  const refused = async (request: Promise<unknown>) => {
    const error = await request.then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ParleyError);
    outputs.push(JSON.stringify((error as ParleyError).toBody()), (error as ParleyError).message);
    outputs.push(renderLens({ kind: 'ERROR', ...(error as ParleyError).toBody() }));
  };
  seen(await client.ask('things.getThing', { id: 't7' }));
  seen(await client.ask('things.headThing', { id: 't7' }));
  for (const form of forms) await refused(client.ask('things.fail', { form }));
  const add = seen((await client.intent('things.addThing', { name: 'n' })) as ProposalsReply);
  const receipt = seen(await client.commit(add.proposals[0] as Proposal, { onEvent })).receipt;
  seen(await client.undo(receipt, { onEvent }));
  const put = seen(
    (await client.intent('things.putThing', { id: 't7', name: 'm' })) as ProposalsReply,
  );
  seen(await client.commit(put.proposals[0] as Proposal, { onEvent }));
  const conflict = (await client.intent('things.putThing', {
    id: 't8',
    name: 'm',
  })) as ProposalsReply;
  await refused(client.commit(conflict.proposals[0] as Proposal, { onEvent }));
  return outputs.join('\n');
}

describe('the upstream credential never leaves the service, in any form (issue 21)', () => {
  let apiKey: Setup;
  let basic: Setup;

  beforeAll(async () => {
    apiKey = await setUp({ type: 'apiKey', in: 'header', name: 'X-Api-Key' }, API_KEY, [API_KEY]);
    basic = await setUp({ type: 'http', scheme: 'basic' }, BASIC, [BASIC, PASSWORD]);
  });

  afterAll(async () => {
    for (const setup of [apiKey, basic]) {
      await setup.served.close();
      await setup.upstream.close();
    }
  });

  it('an API key with / + = " \\ echoed raw, escaped, encoded, base64, hex and case-folded', async () => {
    const forms = ['header', ...Object.keys(keyForms(API_KEY)).map((name) => `${name}0`)];
    const all = await everything(apiKey, forms);
    // The upstream did echo it, and the replies carried its answers.
    expect(apiKey.upstream.arrived[0]?.headers['x-api-key']).toBe(API_KEY);
    expect(all).toContain('Bad key ***');
    expect(all.length).toBeGreaterThan(5000);
    expect(revealed(all, API_KEY)).toBeUndefined();
    for (const [name, form] of Object.entries(keyForms(API_KEY))) {
      expect(all.includes(form), name).toBe(false);
    }
  });

  it('Basic auth: user:pass, its base64 and the password alone, in every form', async () => {
    const forms = [
      'header',
      ...Object.keys(keyForms(BASIC)).flatMap((name) => [`${name}0`, `${name}1`]),
    ];
    const all = await everything(basic, forms);
    const sent = `Basic ${Buffer.from(BASIC).toString('base64')}`;
    expect(basic.upstream.arrived[0]?.headers.authorization).toBe(sent);
    expect(all).not.toContain(sent.slice(6));
    expect(revealed(all, BASIC)).toBeUndefined();
    expect(revealed(all, PASSWORD)).toBeUndefined();
    for (const secret of [BASIC, PASSWORD]) {
      for (const [name, form] of Object.entries(keyForms(secret))) {
        expect(all.includes(form), name).toBe(false);
      }
    }
  });
});
