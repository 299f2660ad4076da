// The MCP client SDK's resolve hook first: src imports the SDK, whose eventsource dependency
// must not be resolved to its TypeScript sources.
import '../../mcp/test/support/sdk-client.js';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type AnswerReply, type Proposal, type ProposalsReply, renderLens } from '@parley/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadGatewayConfig } from '../src/config/gateway-config.js';
import { presetPath } from '../src/presets.js';
import { type GatewayUnderTest, refusal, startGateway } from './support/gateway-agent.js';
import { serverEntry } from './support/reference-servers.js';

const folder = mkdtempSync(join(tmpdir(), 'gateway-memory-'));
const memoryFile = join(folder, 'memory.jsonl');
let under: GatewayUnderTest;

/** The graph as read_graph answers it through the gateway (an ASK). */
async function graph(): Promise<{ entities: { name: string }[]; relations: unknown[] }> {
  const answer = (await under.client.ask('read_graph', {})) as AnswerReply;
  return (answer.data as { structured: { entities: { name: string }[]; relations: [] } })
    .structured;
}

async function propose(capability: string, params: Record<string, unknown>): Promise<Proposal> {
  const reply = (await under.client.intent(capability, params as never)) as ProposalsReply;
  expect(reply.kind).toBe('PROPOSALS');
  expect(reply.proposals).toHaveLength(1);
  return reply.proposals[0] as Proposal;
}

beforeAll(async () => {
  under = await startGateway(
    {
      command: process.execPath,
      args: [serverEntry('server-memory')],
      env: { MEMORY_FILE_PATH: memoryFile },
    },
    loadGatewayConfig(presetPath('memory')),
  );
});

afterAll(async () => {
  await under?.close();
  rmSync(folder, { recursive: true, force: true });
});

describe('@modelcontextprotocol/server-memory behind the gateway (memory preset)', () => {
  it('§4.1: read-only tools are ask capabilities, the rest intents with the table’s risk', async () => {
    const brief = await under.client.hello();
    const kinds = Object.fromEntries(brief.capabilities.map((c) => [c.name, [c.kind, c.risk]]));
    expect(brief.service).toMatchObject({ id: 'memory-server', name: 'memory-server' });
    expect(kinds).toMatchObject({
      read_graph: ['ask', undefined],
      search_nodes: ['ask', undefined],
      open_nodes: ['ask', undefined],
      create_entities: ['intent', 'medium'],
      delete_entities: ['intent', 'high'],
    });
    const create = brief.capabilities.find((c) => c.name === 'create_entities');
    expect(create?.params).toEqual({
      entities: [
        {
          name: 'string — The name of the entity',
          entityType: 'string — The type of the entity',
          observations: 'string[] — An array of observation contents associated with the entity',
        },
      ],
    });
  });

  it('§4.3, §5.1: create_entities is one proposal whose effect is the exact call, undoable', async () => {
    const proposal = await propose('create_entities', {
      entities: [{ name: 'Ana', entityType: 'person', observations: ['likes tea'] }],
    });
    expect(proposal.effects).toEqual([
      {
        op: 'create',
        target: 'tools/call create_entities',
        detail: '{"entities":[{"entityType":"person","name":"Ana","observations":["likes tea"]}]}',
      },
    ]);
    expect(proposal).toMatchObject({
      summary: 'Call create_entities',
      risk: 'medium',
      cost: null,
      undo: { window: 3600 },
    });
    expect(renderLens({ kind: 'PROPOSALS', proposals: [proposal] })).toContain(
      '+ create tools/call create_entities — {"entities":[{"entityType":"person","name":"Ana","observations":["likes tea"]}]}',
    );
    expect((await graph()).entities).toEqual([]);
  });

  it('§4.4: COMMIT calls it once; a replayed COMMIT returns the first receipt; the graph holds it once', async () => {
    const proposal = await propose('create_entities', {
      entities: [{ name: 'Bo', entityType: 'person', observations: ['owns a bike'] }],
    });
    const first = await under.client.commit(proposal);
    expect(first.receipt.result).toEqual({
      structured: {
        entities: [{ name: 'Bo', entityType: 'person', observations: ['owns a bike'] }],
      },
    });
    const again = await under.client.commit(proposal);
    expect(again.replay).toBe(true);
    expect(again.receipt).toEqual(first.receipt);
    expect((await graph()).entities.map((e) => e.name)).toEqual(['Bo']);
    const lines = readFileSync(memoryFile, 'utf8').trim().split('\n');
    expect(lines.filter((line) => line.includes('"Bo"'))).toHaveLength(1);
  });

  it('§4.5: UNDO calls the configured delete_entities with the names from the result', async () => {
    const proposal = await propose('create_entities', {
      entities: [{ name: 'Cy', entityType: 'cat', observations: [] }],
    });
    const { receipt } = await under.client.commit(proposal);
    expect((await graph()).entities.map((e) => e.name)).toContain('Cy');
    const undone = await under.client.undo(receipt);
    expect(undone.receipt).toMatchObject({
      undoes: receipt.id,
      effects: [
        { op: 'delete', target: 'tools/call delete_entities', detail: '{"entityNames":["Cy"]}' },
      ],
    });
    expect((await graph()).entities.map((e) => e.name)).not.toContain('Cy');
  });

  it('§5.1: a tool without a configured inverse is proposed as one that cannot be undone', async () => {
    const proposal = await propose('delete_entities', { entityNames: ['Bo'] });
    expect(proposal).toMatchObject({
      summary: 'Call delete_entities; it cannot be undone',
      risk: 'high',
      undo: null,
    });
    expect(renderLens({ kind: 'PROPOSALS', proposals: [proposal] })).toContain('undo: never');
  });

  it('§4.3: risk and cost from the configuration override the table, for that tool only', async () => {
    const configured = await startGateway(
      {
        command: process.execPath,
        args: [serverEntry('server-memory')],
        env: { MEMORY_FILE_PATH: join(folder, 'configured.jsonl') },
      },
      { tools: { delete_entities: { risk: 'low', cost: { amount: 5, currency: 'USD' } } } },
    );
    try {
      const intent = async (capability: string, params: Record<string, unknown>) =>
        ((await configured.client.intent(capability, params as never)) as ProposalsReply)
          .proposals[0];
      expect(await intent('delete_entities', { entityNames: ['Bo'] })).toMatchObject({
        risk: 'low',
        cost: { amount: 5, currency: 'USD' },
      });
      // Not configured: the table's risk (not destructive, closed world, not idempotent) and free.
      expect(await intent('add_observations', { observations: [] })).toMatchObject({
        risk: 'medium',
        cost: null,
      });
      expect(await intent('delete_relations', { relations: [] })).toMatchObject({
        risk: 'high',
        cost: null,
      });
    } finally {
      await configured.close();
    }
  });

  it('§7: arguments that do not match the schema are invalid_params, and nothing is called', async () => {
    const error = await refusal(
      under.client.intent('create_entities', { entities: [{ name: 'Di', entityType: 'dog' }] }),
    );
    expect(error.code).toBe('invalid_params');
    expect(error.message).toContain('entities[0].observations');
    expect((await graph()).entities.map((e) => e.name)).not.toContain('Di');
  });
});
