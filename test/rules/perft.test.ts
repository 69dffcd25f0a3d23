import { describe, expect, it } from 'vitest';
import { perft, perftDivide } from '../../src/rules/index.js';
import { positionOf } from '../helpers/positions.js';
import { PERFT_CASES as cases, describePerft } from './support.js';

// (Depths 4 and 5 run in the oracle project: test/rules/perft-deep.test.ts.)
describePerft('perft of ../shared/data/perft.json', (depth) => depth <= 3);

describe('perft divide', () => {
  it('sums to the total and names every root move once', () => {
    const pos = positionOf(cases[0]!.fen);
    const rows = perftDivide(pos, 3);
    expect(rows).toHaveLength(44);
    expect(new Set(rows.map((r) => r.move)).size).toBe(44);
    expect(rows.reduce((s, r) => s + r.nodes, 0)).toBe(79666);
    expect(rows.find((r) => r.move === 'h2e2')?.nodes).toBe(
      perft(positionOf('rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b'), 2),
    );
  });
});
