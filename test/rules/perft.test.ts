import { describe, expect, it } from 'vitest';
import { perft, perftDivide } from '../../src/rules/index.js';
import { positionOf } from '../helpers/positions.js';
import { readSharedJson } from '../helpers/shared.js';

interface PerftCase {
  src: string;
  fen: string;
  perft: number[] | Record<string, number>;
}
const { cases } = readSharedJson<{ cases: PerftCase[] }>('data/perft.json');

const depthsOf = (c: PerftCase): [number, number][] =>
  Array.isArray(c.perft)
    ? c.perft.map((n, k) => [k + 1, n] as [number, number])
    : Object.entries(c.perft).map(([d, n]) => [Number(d), n] as [number, number]);

// (Depths 4 and 5 run in the oracle project: test/rules/perft-deep.test.ts.)
describe('perft of ../shared/data/perft.json', () => {
  for (const c of cases) {
    for (const [depth, nodes] of depthsOf(c).filter(([d]) => d <= 3)) {
      it(`${c.fen} depth ${depth} = ${nodes}`, () => {
        const pos = positionOf(c.fen);
        const before = pos.hash;
        expect(perft(pos, depth)).toBe(nodes);
        // make/unmake leaves the position exactly as it was
        expect(pos.hash).toBe(before);
      });
    }
  }
});

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
