import { isPyObject, type PyObject, type PyValue, pyFloat } from '@parley/consensus';

/**
 * A tool argument as a Python-typed JSON value: the host's own text when it was tapped (stdio),
 * else the parsed JSON value, in which an integral number reads as an int.
 */
export function pyArgument(raw: PyObject | undefined, key: string, parsed: unknown): PyValue {
  const tapped = raw === undefined ? undefined : raw[key];
  return tapped === undefined ? (parsed as PyValue) : tapped;
}

/**
 * A transcript with every integral verdict score read as a float. Scores are floats by
 * definition (the engine writes `1.0`), and a host that re-serialises JSON in JavaScript sends
 * them back as `1`; reading them as floats keeps the recomputed hash equal to the original.
 */
export function withFloatScores(transcript: PyValue): PyValue {
  if (!isPyObject(transcript) || !Array.isArray(transcript.entries)) return transcript;
  const entries = (transcript.entries as readonly PyValue[]).map((entry) => {
    if (!isPyObject(entry) || !Array.isArray(entry.verdicts)) return entry;
    const verdicts = (entry.verdicts as readonly PyValue[]).map((verdict) => {
      if (!isPyObject(verdict)) return verdict;
      const { score } = verdict;
      return typeof score === 'number' && Number.isInteger(score)
        ? { ...verdict, score: pyFloat(score) }
        : verdict;
    });
    return { ...entry, verdicts };
  });
  return { ...transcript, entries };
}
