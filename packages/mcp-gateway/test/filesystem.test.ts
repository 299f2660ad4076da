// The MCP client SDK's resolve hook first (see memory.test.ts).
import '../../mcp/test/support/sdk-client.js';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Proposal, type ProposalsReply, renderLens } from '@parley/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadGatewayConfig } from '../src/config/gateway-config.js';
import { presetPath } from '../src/presets.js';
import { type GatewayUnderTest, refusal, startGateway } from './support/gateway-agent.js';
import { serverEntry } from './support/reference-servers.js';

const folder = mkdtempSync(join(tmpdir(), 'gateway-fs-'));
const allowed = join(folder, 'allowed');
const outside = join(folder, 'outside.txt');
let under: GatewayUnderTest;

async function propose(capability: string, params: Record<string, unknown>): Promise<Proposal> {
  const reply = (await under.client.intent(capability, params as never)) as ProposalsReply;
  return reply.proposals[0] as Proposal;
}

beforeAll(async () => {
  mkdirSync(allowed);
  under = await startGateway(
    { command: process.execPath, args: [serverEntry('server-filesystem'), allowed] },
    loadGatewayConfig(presetPath('filesystem')),
  );
});

afterAll(async () => {
  await under?.close();
  rmSync(folder, { recursive: true, force: true });
});

describe('@modelcontextprotocol/server-filesystem on a temp folder (filesystem preset)', () => {
  it('§5.1: write_file shows the path and the content, and the file as it is now', async () => {
    const path = join(allowed, 'notes.txt');
    const proposal = await propose('write_file', { path, content: 'hello\n' });
    expect(proposal.effects).toEqual([
      {
        op: 'update',
        target: 'tools/call write_file',
        detail: JSON.stringify({ content: 'hello\n', path }),
      },
    ]);
    expect(proposal).toMatchObject({ risk: 'high', undo: null });
    const reply = { kind: 'PROPOSALS' as const, proposals: [proposal] };
    expect(renderLens(reply)).toContain(
      `~ update tools/call write_file — {"content":"hello\\n","path":"${path}"}`,
    );
    expect(existsSync(path)).toBe(false);
    const { receipt } = await under.client.commit(proposal);
    expect(readFileSync(path, 'utf8')).toBe('hello\n');
    expect(receipt.result).toEqual({ structured: { content: `Successfully wrote to ${path}` } });
  });

  it('§5.1: a COMMIT of a proposal whose file changed since is refused, and nothing is written', async () => {
    const path = join(allowed, 'plan.txt');
    writeFileSync(path, 'v1');
    const proposal = await propose('write_file', { path, content: 'v2' });
    expect(proposal.data).toEqual({ 'now (read_text_file)': { structured: { content: 'v1' } } });
    writeFileSync(path, 'changed by someone else');
    const error = await refusal(under.client.commit(proposal));
    expect(error.code).toBe('conflict');
    expect(error.message).toBe(
      'what read_text_file reads has changed since this proposal was made, so the call was not sent; re-run the INTENT to see it as it is now',
    );
    expect(readFileSync(path, 'utf8')).toBe('changed by someone else');
    const fresh = await propose('write_file', { path, content: 'v2' });
    await under.client.commit(fresh);
    expect(readFileSync(path, 'utf8')).toBe('v2');
  });

  it('a path outside the allowed folder is the server’s refusal, reported, and nothing is written', async () => {
    const proposal = await propose('write_file', { path: outside, content: 'x' });
    const error = await refusal(under.client.commit(proposal));
    expect(error.code).toBe('invalid_params');
    expect(error.message).toMatch(
      /^the tool write_file reported an error: .*Access denied - path outside allowed directories/,
    );
    expect(existsSync(outside)).toBe(false);
    // A failed commit: no receipt, nothing in doubt; a retry is the tool's refusal again.
    expect(await under.gateway.service.listCommitsInDoubt()).toEqual([]);
    const again = await refusal(under.client.commit(proposal));
    expect(again.message).toBe(error.message);
    const read = await refusal(under.client.ask('read_text_file', { path: outside }));
    expect(read.message).toMatch(/^the tool read_text_file reported an error: .*Access denied/);
  });

  it('§7: the full JSON Schema is checked before anything is sent (minItems), with its reason', async () => {
    const error = await refusal(under.client.ask('read_multiple_files', { paths: [] }));
    expect(error.code).toBe('invalid_params');
    expect(error.message).toBe(
      'the arguments of read_multiple_files do not match its schema: `/paths` must NOT have fewer than 1 items',
    );
  });
});
