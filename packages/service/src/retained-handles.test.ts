import { describe, expect, it } from 'vitest';
import { RetainedHandles } from './retained-handles.js';

const handle = (id: string, chars = 10, expiresAt = 100) => ({ id, chars, expiresAt });

describe('§4.6 retained handles', () => {
  it('keeps at most the bound of handles per pool, evicting the oldest, pools apart', () => {
    const kept = new RetainedHandles(2, 1000);
    expect(kept.add('a', [handle('a1'), handle('a2')])).toEqual([]);
    expect(kept.add('b', [handle('b1')])).toEqual([]);
    expect(kept.add('a', [handle('a3')])).toEqual(['a1']);
    expect(kept.sizeOf('a')).toEqual({ handles: 2, chars: 20 });
    expect(kept.sizeOf('b')).toEqual({ handles: 1, chars: 10 });
    expect(kept.poolOf('a1')).toBeUndefined();
    expect(kept.poolOf('a3')).toBe('a');
  });

  it('keeps at most the bound of characters per pool; a handle larger than it is not kept', () => {
    const kept = new RetainedHandles(100, 25);
    kept.add('a', [handle('a1'), handle('a2')]);
    expect(kept.add('a', [handle('a3')])).toEqual(['a1']);
    expect(kept.add('a', [handle('big', 26)])).toEqual(['a2', 'a3', 'big']);
    expect(kept.sizeOf('a')).toEqual({ handles: 0, chars: 0 });
  });

  it('forgets expired handles on sweep', () => {
    const kept = new RetainedHandles();
    kept.add('a', [handle('old', 10, 50), handle('new', 10, 500)]);
    kept.sweep(100);
    expect(kept.sizeOf('a')).toEqual({ handles: 1, chars: 10 });
    expect(kept.poolOf('old')).toBeUndefined();
  });
});
