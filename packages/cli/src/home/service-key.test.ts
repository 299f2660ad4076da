import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { publicKeyString } from '@parley/protocol';
import { afterEach, describe, expect, it } from 'vitest';
import { loadServiceKey } from './service-key.js';

let folder: string | undefined;
afterEach(() => {
  if (folder !== undefined) rmSync(folder, { recursive: true, force: true });
});

describe('docs/extensions.md §E1: the service key file', () => {
  it('instances making it at once on one folder all sign with the one key written first', async () => {
    folder = mkdtempSync(join(tmpdir(), 'parley-service-key-'));
    const path = join(folder, 'service-key.json');
    const loaded = await Promise.all(Array.from({ length: 8 }, () => loadServiceKey(path)));
    const keys = new Set(loaded.map((l) => publicKeyString(l.key)));
    expect(keys.size).toBe(1);
    expect(loaded.filter((l) => l.created).length).toBeLessThanOrEqual(1);
    const again = await loadServiceKey(path);
    expect(publicKeyString(again.key)).toEqual([...keys][0]);
    expect(again.created).toBe(false);
  });
});
