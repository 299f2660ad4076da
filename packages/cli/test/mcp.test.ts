import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { ParleyServer } from '@parley/transport';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERAS, openHost } from '../../mcp/test/support/hosts.js';
import { textOf } from '../../mcp/test/support/results.js';
import { CHILD_TEST_TIMEOUT_MS, NODE_ARGS, runCli } from './fixtures/cli-process.js';
import { serveGrantedCalendar } from './fixtures/granted-calendar.js';
import { tempFolder } from './fixtures/temp-home.js';

const folder = tempFolder();
const env = { PARLEY_HOME: folder.home };
const recipe = fileURLToPath(new URL('../../consensus/recipes/recipe_kyc.json', import.meta.url));
let calendar: ParleyServer;

beforeAll(async () => {
  calendar = await serveGrantedCalendar(env);
}, CHILD_TEST_TIMEOUT_MS);
afterAll(async () => {
  await calendar.close();
  folder.remove();
});

describe('parley mcp and parley consensus-mcp, driven by the official MCP client', {
  timeout: CHILD_TEST_TIMEOUT_MS,
}, () => {
  for (const era of ERAS) {
    it(`${era}: parley mcp URL serves the service with the local agent's wallet`, async () => {
      const host = await openHost({
        era,
        command: process.execPath,
        args: [...NODE_ARGS, 'mcp', calendar.address],
        env,
      });
      try {
        const tools = await host.client.listTools();
        const ask = tools.tools.find((t) => t.name === 'parley_ask');
        expect(ask?.description).toContain('# Example Calendar (cal.example.com)');
        const proposals = await host.client.callTool({
          name: 'parley_intent',
          arguments: {
            capability: 'calendar.reschedule',
            params: { event: 'e77', to: '2099-01-05T11:00:00Z' },
          },
        });
        const id = /\[(p_[\w-]+)\]/.exec(textOf(proposals))?.[1];
        expect(id).toBeDefined();
        const receipt = await host.client.callTool({
          name: 'parley_commit',
          arguments: { proposal: id },
        });
        expect(textOf(receipt)).toMatch(/^✓ /);
      } finally {
        await host.close();
      }
    });

    it(`${era}: parley consensus-mcp decides with the same receipt hash as parley decide --json`, async () => {
      const cli = JSON.parse((await runCli(['decide', recipe, '--json'], env)).stdout) as {
        transcript_sha256: string;
      };
      const host = await openHost({
        era,
        command: process.execPath,
        args: [...NODE_ARGS, 'consensus-mcp'],
        env,
      });
      try {
        const result = await host.client.callTool({
          name: 'parley_decide',
          arguments: { spec: JSON.parse(readFileSync(recipe, 'utf8')) },
        });
        expect(JSON.parse(textOf(result)).transcript_sha256).toBe(cli.transcript_sha256);
      } finally {
        await host.close();
      }
    });
  }
});
