import { PyFloat, pyDumps } from '@parley/consensus';
import { describe, expect, it } from 'vitest';
import { pyArgument, withFloatScores } from './py-arguments.js';

describe('withFloatScores', () => {
  it('reads integral verdict scores as floats and leaves everything else alone', () => {
    const transcript = {
      entries: [
        {
          option: { cost: 600 },
          verdicts: [
            { owner: 'A', score: 1, acceptable: true },
            { owner: 'B', score: 0.25, acceptable: true },
          ],
        },
      ],
      result: { status: 'agreed', decision: { cost: 600 } },
    };
    const read = withFloatScores(transcript);
    expect(pyDumps(read)).toBe(
      '{"entries": [{"option": {"cost": 600}, "verdicts": [{"acceptable": true, "owner": "A", "score": 1.0}, {"acceptable": true, "owner": "B", "score": 0.25}]}], "result": {"decision": {"cost": 600}, "status": "agreed"}}',
    );
    expect(transcript.entries[0]?.verdicts[0]?.score).toBe(1);
    expect(withFloatScores('x')).toBe('x');
  });
});

describe('pyArgument', () => {
  it('prefers the tapped text over the parsed value', () => {
    const tapped = { spec: new PyFloat(5) };
    expect(pyArgument(tapped, 'spec', 5)).toBeInstanceOf(PyFloat);
    expect(pyArgument(undefined, 'spec', 5)).toBe(5);
    expect(pyArgument(tapped, 'other', 3)).toBe(3);
  });
});
