import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { armKillPoint, KILL_POINTS } from './kill-point.js';

const MODULE = pathToFileURL(fileURLToPath(new URL('./kill-point.ts', import.meta.url))).href;
const TSX = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;

/** Runs `script` (with `k` the kill-point module) in a child; an armed point kills only it. */
function inChild(script: string) {
  return spawnSync(
    process.execPath,
    [
      '--import',
      TSX,
      '--input-type=module',
      '-e',
      `const k = await import(${JSON.stringify(MODULE)});\n${script}`,
    ],
    { encoding: 'utf8', timeout: 20_000 },
  );
}

describe('kill points (crash campaign hooks)', () => {
  it('refuses a spec that is not NAME[:N] with a known name and N ≥ 1, naming it', () => {
    for (const spec of ['', 'commit', 'commit.begun:0', 'commit.begun:x', 'commit.begun:1:2']) {
      expect(() => armKillPoint(spec)).toThrow(TypeError);
    }
    expect(() => armKillPoint('nowhere:1')).toThrow(/"nowhere:1".*commit\.begun/);
  });

  it('kills the process the n-th time the armed point is reached, and not at other points', () => {
    const child = inChild(`
      k.armKillPoint('${KILL_POINTS[1]}:2');
      k.killPoint('${KILL_POINTS[0]}');
      k.killPoint('${KILL_POINTS[1]}');
      console.log('passed once');
      k.killPoint('${KILL_POINTS[1]}');
      console.log('still alive');
    `);
    expect(child.signal).toBe('SIGKILL');
    expect(child.stdout).toBe('passed once\n');
  });

  it('unarmed, every point is passed', () => {
    const child = inChild(`
      for (const point of k.KILL_POINTS) k.killPoint(point);
      console.log('done');
    `);
    expect(child.status).toBe(0);
    expect(child.stdout).toBe('done\n');
  });
});
