import { describe, expect, it } from 'vitest';
import { fileNameFor } from './file-name.js';

describe('file names for ids a service chose', () => {
  it('keeps plain ids and encodes anything that could leave the folder', () => {
    expect(fileNameFor('cal.example.com')).toBe('cal.example.com');
    expect(fileNameFor('p_7Hc2-x')).toBe('p_7Hc2-x');
    expect(fileNameFor('../../etc/passwd')).toBe('%2e.%2f..%2fetc%2fpasswd');
    expect(fileNameFor('a b/ü')).toBe('a%20b%2f%c3%bc');
  });
});
