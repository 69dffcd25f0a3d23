/**
 * Perft at depths 4 and 5 of ../shared/data/perft.json (reference counts): the oracle project (the
 * unit project's perft.test.ts goes to depth 3).
 */
import { describe, expect, it } from 'vitest';
import { perft } from '../../src/rules/index.js';
import { positionOf } from '../helpers/positions.js';
import { PERFT_CASES as cases, describePerft } from './support.js';

describePerft('perft depth 4', (depth) => depth === 4);

describe('perft depth 5 (slow tier)', () => {
  // The three smallest depth-5 counts keep CI quick; the start position's 133M runs in `npm run bench`.
  const deep = cases
    .filter((c) => Array.isArray(c.perft) && c.perft.length >= 5)
    .sort((a, b) => (a.perft as number[])[4]! - (b.perft as number[])[4]!)
    .slice(0, 3);
  for (const c of deep) {
    const nodes = (c.perft as number[])[4]!;
    it(`${c.fen} depth 5 = ${nodes}`, () => {
      expect(perft(positionOf(c.fen), 5)).toBe(nodes);
    });
  }
});
