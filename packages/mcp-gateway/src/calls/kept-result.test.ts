import { describe, expect, it } from 'vitest';
import { keptResult, toolMessage } from './kept-result.js';

describe("a tool's result in an answer or a receipt", () => {
  it('keeps text and structured content, once when the text only prints the structure', () => {
    const structured = { entities: [{ name: 'Ana' }] };
    expect(
      keptResult(
        {
          content: [{ type: 'text', text: JSON.stringify(structured, null, 2) }],
          structuredContent: structured,
        },
        1000,
      ),
    ).toEqual({ structured });
    expect(
      keptResult({ content: [{ type: 'text', text: 'done' }], structuredContent: { n: 1 } }, 1000),
    ).toEqual({ text: 'done', structured: { n: 1 } });
  });

  it('describes images by type and size, never their bytes', () => {
    const kept = keptResult(
      { content: [{ type: 'image', data: 'AAAA', mimeType: 'image/png' }] },
      1000,
    );
    expect(kept).toEqual({ content: [{ type: 'image', mimeType: 'image/png', bytes: 3 }] });
  });

  it('cuts text past the limit and leaves out structured content that does not fit, saying so', () => {
    const kept = keptResult(
      { content: [{ type: 'text', text: 'x'.repeat(300) }], structuredContent: { big: 'y' } },
      256,
    );
    expect(kept.text).toHaveLength(256);
    expect(kept.structured).toBeUndefined();
    expect(kept.cut).toBe(
      'left out: 44 characters of text, the structured content (11 characters)',
    );
  });

  it("takes an error result's text as the tool's one-line message", () => {
    expect(
      toolMessage({ isError: true, content: [{ type: 'text', text: 'Access denied -\n path' }] }),
    ).toBe('Access denied - path');
    expect(toolMessage({ isError: true, content: [] })).toBe('it gave no reason');
  });
});
