import { MAX_FRAME_CONTAINERS } from '@parley/protocol';
import { describe, expect, it, vi } from 'vitest';
import { readFrameText } from './frame-text.js';

describe("readFrameText: a request frame's text read once (§2.1)", () => {
  it('parses a frame', () => {
    expect(readFrameText('{"parley":1,"id":"a","verb":"HELLO"}')).toEqual({
      frame: { parley: 1, id: 'a', verb: 'HELLO' },
    });
  });

  it('refuses text that is not JSON', () => {
    expect(readFrameText('{"parley":1,')).toEqual({ refused: 'the frame is not valid JSON' });
  });

  it('refuses a frame of too many arrays and objects without parsing it', () => {
    const parse = vi.spyOn(JSON, 'parse');
    try {
      const text = `[${Array.from({ length: MAX_FRAME_CONTAINERS }, () => '{}').join(',')}]`;
      expect(readFrameText(text).refused).toMatch(/more than 50000 arrays and objects/);
      expect(parse).not.toHaveBeenCalled();
    } finally {
      parse.mockRestore();
    }
  });
});
