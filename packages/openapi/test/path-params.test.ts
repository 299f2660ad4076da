import {
  generateKeyPair,
  type JsonValue,
  ParleyError,
  type Proposal,
  type ProposalsReply,
  publicKeyString,
} from '@parley/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOpenApiService } from '../src/index.js';
import { type ServedAgent, serveWithAgent } from './parley-agent.js';
import { ScriptedUpstream } from './scripted-upstream.js';

const SECRET = 'sk-path-test-5e4d3c2b1a';
const text = { type: 'string' };
const path = (name: string) => ({ name, in: 'path', required: true, schema: text });
const ok = { '200': { description: 'ok' } };

/** A project's members: removing one must never reach the project itself (issue 21). */
const document = {
  openapi: '3.1.0',
  info: { title: 'Projects', version: '1', 'x-parley-prefix': 'projects' },
  components: { securitySchemes: { key: { type: 'apiKey', in: 'header', name: 'X-Api-Key' } } },
  paths: {
    '/projects/{project}': {
      parameters: [path('project')],
      get: { operationId: 'getProject', responses: ok },
      delete: { operationId: 'deleteProject', responses: ok },
    },
    '/projects/{project}/members/{member}': {
      parameters: [path('project'), path('member')],
      get: { operationId: 'getMember', responses: ok },
      delete: { operationId: 'removeMember', responses: ok },
    },
    '/files/{name}.json': {
      parameters: [path('name')],
      get: { operationId: 'getFile', responses: ok },
    },
  },
};

/** Values a URL parser or an upstream resolves into a dot segment, or that split a segment. */
const HOSTILE = [
  '..',
  '.',
  '...',
  '',
  ' ',
  '%2e%2e',
  '.%2E',
  '%2E.',
  '%2e',
  '%252e%252e',
  '%u002e%u002e',
  '%c0%ae%c0%ae',
  '．．',
  '..;x',
  '..%00',
  '..\\',
  '\\',
  'x\\..',
  '%5c',
  'a/b',
  '../p2',
  '..%2f',
  '%2F',
  '／',
  '?all',
];

const upstream = new ScriptedUpstream(() => ({
  status: 200,
  headers: { 'content-type': 'application/json' },
  body: '{"ok":true}',
}));
const principal = await generateKeyPair();
let served: ServedAgent;

beforeAll(async () => {
  const made = await createOpenApiService({
    document,
    upstream: await upstream.start(),
    auth: { secret: SECRET },
    trust: [publicKeyString(principal)],
  });
  served = await serveWithAgent(made.service, principal, ['projects.*']);
});

afterAll(async () => {
  await served.close();
  await upstream.close();
});

/** An INTENT and, if it made a proposal, its COMMIT: the error, or the proposal committed. */
async function removeMember(member: string): Promise<ParleyError | Proposal> {
  try {
    const reply = (await served.client.intent('projects.removeMember', {
      project: 'p1',
      member,
    })) as ProposalsReply;
    const proposal = reply.proposals[0] as Proposal;
    await served.client.commit(proposal);
    return proposal;
  } catch (error) {
    if (error instanceof ParleyError) return error;
    throw error;
  }
}

async function refusal(request: Promise<unknown>): Promise<ParleyError | JsonValue> {
  return request.then(
    (reply) => reply as JsonValue,
    (e: unknown) => {
      if (e instanceof ParleyError) return e;
      throw e;
    },
  );
}

describe('a path parameter never changes which path is requested (issue 21)', () => {
  it.each(HOSTILE)(
    'COMMIT: member=%j is refused with invalid_params and nothing is sent',
    async (member) => {
      const before = upstream.arrived.length;
      const outcome = await removeMember(member);
      // Before the fix `..` sent GET and DELETE /projects/p1/: the project, with the operator's
      // key.
      expect(upstream.lines().slice(before)).toEqual([]);
      expect(outcome).toBeInstanceOf(ParleyError);
      expect((outcome as ParleyError).code).toBe('invalid_params');
      expect((outcome as ParleyError).message).toMatch(/^the path parameter member /);
    },
  );

  it.each(HOSTILE)(
    'ASK: member=%j is refused with invalid_params and nothing is sent',
    async (member) => {
      const before = upstream.arrived.length;
      const outcome = await refusal(
        served.client.ask('projects.getMember', { project: 'p1', member }),
      );
      expect(upstream.lines().slice(before)).toEqual([]);
      expect(outcome).toMatchObject({ code: 'invalid_params' });
    },
  );

  it('a segment of a parameter and literal text: no slash; dots that make no dot segment pass', async () => {
    const before = upstream.arrived.length;
    for (const name of ['a/b', '%2F', '\\', '%5C']) {
      const outcome = await refusal(served.client.ask('projects.getFile', { name }));
      expect(outcome).toMatchObject({ code: 'invalid_params' });
    }
    expect(upstream.lines().slice(before)).toEqual([]);
    expect(await served.client.ask('projects.getFile', { name: '.' })).toMatchObject({
      data: { ok: true },
    });
    expect(upstream.lines().at(-1)).toBe('GET /files/..json');
  });

  it('§5.1: other values are sent as one segment, exactly as the proposal showed', async () => {
    for (const member of ['alice', 'a b', 'x..y', '.hidden', 'ünï', '50%', "o'brien:1"]) {
      const before = upstream.arrived.length;
      const outcome = await removeMember(member);
      expect(outcome).not.toBeInstanceOf(ParleyError);
      const target = (outcome as Proposal).effects[0]?.target ?? '';
      const sent = upstream.lines().slice(before);
      // The resource read at INTENT and again at COMMIT, then the write: all the one member.
      expect(sent).toEqual([
        `GET ${target.slice(`DELETE ${upstream.origin}`.length)}`,
        `GET ${target.slice(`DELETE ${upstream.origin}`.length)}`,
        target.replace(upstream.origin, ''),
      ]);
      expect(sent[2]).toBe(`DELETE /projects/p1/members/${encodeURIComponent(member)}`);
    }
  });
});
