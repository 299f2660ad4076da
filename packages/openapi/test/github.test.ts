import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  generateKeyPair,
  type Proposal,
  type ProposalsReply,
  publicKeyString,
} from '@parley/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOpenApiService, presetPath } from '../src/index.js';
import { type ServedAgent, serveWithAgent } from './parley-agent.js';

const TOKEN = 'ghp_testtoken0123456789';
type Issue = { number: number; title: string; state: string; body?: string };
const issues = new Map<number, Issue>();
const received: { method: string; url: string; headers: IncomingHttpHeaders; body: string }[] = [];

/** A stand-in for the three issue endpoints the test uses, answering as GitHub documents. */
const github = createServer((req, res) => {
  let body = '';
  req.on('data', (chunk: Buffer) => {
    body += chunk.toString();
  });
  req.on('end', () => {
    received.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body });
    const reply = (status: number, value: unknown, headers: Record<string, string> = {}) => {
      res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', ...headers });
      res.end(JSON.stringify(value));
    };
    if (req.headers.authorization !== `Bearer ${TOKEN}`) {
      return reply(401, { message: 'Bad credentials' });
    }
    const one = /^\/repos\/octo\/demo\/issues\/(\d+)$/.exec(req.url ?? '');
    if (req.method === 'POST' && req.url === '/repos/octo/demo/issues') {
      const input = JSON.parse(body) as Issue;
      const issue = { ...input, number: issues.size + 1, state: 'open' };
      issues.set(issue.number, issue);
      return reply(201, issue);
    }
    const issue = one === null ? undefined : issues.get(Number(one[1]));
    if (issue === undefined) return reply(404, { message: 'Not Found' });
    if (req.method === 'GET')
      return reply(200, issue, { etag: `W/"${JSON.stringify(issue).length}"` });
    if (req.method === 'PATCH') {
      Object.assign(issue, JSON.parse(body));
      return reply(200, issue);
    }
    reply(405, { message: 'Method Not Allowed' });
  });
});

const principal = await generateKeyPair();
let served: ServedAgent;

beforeAll(async () => {
  await new Promise<void>((resolve) => github.listen(0, '127.0.0.1', resolve));
  const made = await createOpenApiService({
    document: presetPath('github'),
    upstream: `http://127.0.0.1:${(github.address() as AddressInfo).port}`,
    auth: { secret: TOKEN, header: 'Authorization' },
    trust: [publicKeyString(principal)],
  });
  served = await serveWithAgent(made.service, principal, ['github.issues.*']);
});

afterAll(async () => {
  await served.close();
  github.closeAllConnections();
  await new Promise((resolve) => github.close(resolve));
});

describe('the github preset', () => {
  it('opens an issue with a bearer token and the GitHub headers; UNDO closes it', async () => {
    const reply = (await served.client.intent('github.issues.create', {
      owner: 'octo',
      repo: 'demo',
      title: 'Crash on start',
      labels: ['bug'],
    })) as ProposalsReply;
    const proposal = reply.proposals[0] as Proposal;
    expect(proposal).toMatchObject({
      capability: 'github.issues.create',
      effects: [
        {
          op: 'create',
          target: expect.stringMatching(
            /^POST http:\/\/127\.0\.0\.1:\d+\/repos\/octo\/demo\/issues$/,
          ),
          detail: '{"title":"Crash on start","labels":["bug"]}',
        },
      ],
      risk: 'medium',
      undo: { window: 86_400 },
    });
    const receipt = (await served.client.commit(proposal)).receipt;
    expect(receipt.result).toMatchObject({ status: 201, body: { number: 1, state: 'open' } });
    const sent = received.at(-1);
    expect(sent?.headers).toMatchObject({
      authorization: `Bearer ${TOKEN}`,
      accept: 'application/vnd.github+json',
      'x-github-api-version': '2022-11-28',
    });
    const undone = (await served.client.undo(receipt)).receipt;
    expect(undone.effects).toEqual([
      {
        op: 'update',
        target: expect.stringMatching(/\/repos\/octo\/demo\/issues\/1$/),
        detail: '{"state":"closed"}',
      },
    ]);
    expect(issues.get(1)?.state).toBe('closed');
  });

  it('an edit shows the fields it changes; a comment on the issue since makes its COMMIT a conflict', async () => {
    const proposal = (
      (await served.client.intent('github.issues.update', {
        owner: 'octo',
        repo: 'demo',
        issue_number: 1,
        title: 'Crash on start (Linux)',
      })) as ProposalsReply
    ).proposals[0] as Proposal;
    expect(proposal.effects[1]).toEqual({
      op: 'update',
      target: '/repos/octo/demo/issues/1',
      field: 'title',
      from: 'Crash on start',
      to: 'Crash on start (Linux)',
    });
    (issues.get(1) as Issue).body = 'more detail from someone else';
    await expect(served.client.commit(proposal)).rejects.toMatchObject({ code: 'conflict' });
    expect(issues.get(1)?.title).toBe('Crash on start');
  });

  it('the token is in no reply', async () => {
    const error = await served.client
      .ask('github.issues.get', { owner: 'octo', repo: 'demo', issue_number: 99 })
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'not_found' });
    expect(JSON.stringify(error)).not.toContain(TOKEN);
  });
});
