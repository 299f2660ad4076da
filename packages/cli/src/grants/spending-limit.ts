import { type Grant, readCaveat } from '@parley/protocol';

/**
 * §6.3: whether a COMMIT under `grant` may cost any amount without the principal's consent: no
 * block has a `per` or `spend` caveat, and nothing else keeps it from committing at a cost (a
 * `verbs` list without COMMIT, an `only` hash the principal approved, a malformed caveat, which
 * fails every request closed).
 */
export function spendsWithoutLimit(grant: Grant): boolean {
  for (const block of grant) {
    for (const caveat of block.p.caveats) {
      const read = readCaveat(caveat);
      if ('malformed' in read) return false;
      if (read.name === 'per' || read.name === 'spend' || read.name === 'only') return false;
      if (read.name === 'verbs' && !read.value.includes('COMMIT')) return false;
    }
  }
  return true;
}

/** The line `parley grants` shows, and `parley grant` warns with, for such a grant. */
export const NO_LIMIT =
  "no limit: a COMMIT may cost any amount without the principal's consent (no per or spend caveat)";
