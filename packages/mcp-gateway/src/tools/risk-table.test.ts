import { describe, expect, it } from 'vitest';
import { isReadOnly, riskOf } from './risk-table.js';

describe('the risk table from MCP tool annotations', () => {
  it('is high for a destructive tool, and for one that says nothing (MCP defaults)', () => {
    expect(riskOf(undefined)).toBe('high');
    expect(riskOf({})).toBe('high');
    expect(riskOf({ destructiveHint: true, idempotentHint: true, openWorldHint: false })).toBe(
      'high',
    );
  });

  it('is medium for an additive tool that reaches the open world or is not idempotent', () => {
    expect(riskOf({ destructiveHint: false })).toBe('medium');
    expect(riskOf({ destructiveHint: false, openWorldHint: true, idempotentHint: true })).toBe(
      'medium',
    );
    expect(riskOf({ destructiveHint: false, openWorldHint: false })).toBe('medium');
  });

  it('is low only for an additive, idempotent, closed-world tool', () => {
    expect(riskOf({ destructiveHint: false, openWorldHint: false, idempotentHint: true })).toBe(
      'low',
    );
  });

  it('treats a tool as read-only only when readOnlyHint is true', () => {
    expect(isReadOnly({ readOnlyHint: true })).toBe(true);
    expect(isReadOnly({})).toBe(false);
    expect(isReadOnly(undefined)).toBe(false);
  });
});
