/**
 * Names and values longer than this (UTF-16 code units) are never compared for a did-you-mean:
 * an edit distance costs length × length, and a client controls the length (a 1 MiB frame could
 * otherwise hold the event loop for seconds). Parameter names, enum values, capability names,
 * skus and titles are far shorter.
 */
export const MAX_COMPARED_LENGTH = 64;

/**
 * Edit distance (insert, delete, substitute, swap of neighbours), for did-you-mean fixes. Keeps
 * three rows, not the whole table; its cost is a.length × b.length, so callers bound the lengths.
 */
export function editDistance(a: string, b: string): number {
  const cols = b.length + 1;
  let before = new Array<number>(cols).fill(0);
  let above = Array.from({ length: cols }, (_, j) => j);
  let row = new Array<number>(cols).fill(0);
  for (let i = 1; i <= a.length; i++) {
    row[0] = i;
    for (let j = 1; j < cols; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(
        (above[j] as number) + 1,
        (row[j - 1] as number) + 1,
        (above[j - 1] as number) + cost,
      );
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        best = Math.min(best, (before[j - 2] as number) + 1);
      }
      row[j] = best;
    }
    [before, above, row] = [above, row, before];
  }
  return above[cols - 1] as number;
}

/**
 * The candidate closest to `word`, if it is close enough to be a likely misspelling: a
 * case-insensitive match, or an edit distance of at most max(1, ⌊length/3⌋). Words and
 * candidates longer than MAX_COMPARED_LENGTH are not compared, nor candidates whose length alone
 * puts them out of reach, so a call costs at most MAX_COMPARED_LENGTH² per candidate.
 */
export function didYouMean(word: string, candidates: Iterable<string>): string | undefined {
  if (word.length > MAX_COMPARED_LENGTH) return undefined;
  const lower = word.toLowerCase();
  const limit = Math.max(1, Math.floor(word.length / 3));
  let best: string | undefined;
  let bestDistance = Number.POSITIVE_INFINITY;
  for (const candidate of candidates) {
    if (candidate.length > MAX_COMPARED_LENGTH) continue;
    if (Math.abs(candidate.length - word.length) > limit) continue;
    if (candidate.toLowerCase() === lower) return candidate;
    const distance = editDistance(lower, candidate.toLowerCase());
    if (distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
    }
  }
  return bestDistance <= limit ? best : undefined;
}
