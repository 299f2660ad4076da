import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { GatewayError } from '../gateway-error.js';
import { checkGatewayConfig, DEFAULT_RESULT_LIMIT, loadGatewayConfig } from './gateway-config.js';

describe('the configuration file (config.schema.json)', () => {
  it('is optional: an empty object gets the defaults', () => {
    const settings = checkGatewayConfig({});
    expect(settings.timeoutMs).toBe(60_000);
    expect(settings.resultLimit).toBe(DEFAULT_RESULT_LIMIT);
    expect(settings.tools.size).toBe(0);
  });

  it('parses per-tool risk, cost, undo and precondition mappings', () => {
    const settings = checkGatewayConfig({
      id: 'memory.local',
      tools: {
        create_entities: {
          risk: 'low',
          effect: 'create',
          cost: { amount: 5, currency: 'USD' },
          undo: { tool: 'delete_entities', arguments: { entityNames: '$result#/entities/*/name' } },
        },
        write_file: {
          precondition: { tool: 'read_text_file', arguments: { path: '$arguments#/path' } },
        },
      },
    });
    const create = settings.tools.get('create_entities');
    expect(create?.undo?.window).toBe(3600);
    expect(create?.undo?.arguments.get('entityNames')).toEqual({
      kind: 'pointer',
      source: 'result',
      pointer: ['entities', '*', 'name'],
    });
    expect(settings.tools.get('write_file')?.precondition?.tool).toBe('read_text_file');
  });

  it('refuses what the schema does not allow, in one sentence naming the file and place', () => {
    expect(() => checkGatewayConfig({ tools: { x: { risk: 'extreme' } } }, 'g.json')).toThrow(
      /^g\.json: `\/tools\/x\/risk` must be equal to one of the allowed values: "low", "medium", "high"$/,
    );
    expect(() => checkGatewayConfig({ timeout: 5 }, 'g.json')).toThrow(/`timeout`/);
    expect(() =>
      checkGatewayConfig({
        tools: { w: { precondition: { tool: 'r', arguments: { p: '$result#/x' } } } },
      }),
    ).toThrow(GatewayError);
  });

  it('reads a file, and says what is wrong with one that is not JSON', () => {
    const folder = mkdtempSync(join(tmpdir(), 'gateway-config-'));
    const good = join(folder, 'good.json');
    writeFileSync(good, JSON.stringify({ prefix: 'mem' }));
    expect(loadGatewayConfig(good).prefix).toBe('mem');
    const bad = join(folder, 'bad.json');
    writeFileSync(bad, '{ prefix: mem');
    expect(() => loadGatewayConfig(bad)).toThrow(/bad\.json is not JSON/);
    expect(() => loadGatewayConfig(join(folder, 'none.json'))).toThrow(/cannot read/);
  });
});
