import { describe, expect, it } from 'vitest';
import { terminalText } from './terminal-text.js';

describe('§6.6 service text shown to a person cannot drive the terminal', () => {
  it('escapes C0, C1 and bidi controls; keeps newlines only when asked', () => {
    expect(terminalText('ok\u001b[2J\u009bx\u202eevil')).toBe('ok\\u{1b}[2J\\u{9b}x\\u{202e}evil');
    expect(terminalText('a\nb')).toBe('a\\u{a}b');
    expect(terminalText('a\nb', true)).toBe('a\nb');
    expect(terminalText('Order 1 item · 104.98 USD → ✓')).toBe('Order 1 item · 104.98 USD → ✓');
  });
});
