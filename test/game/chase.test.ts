/** What counts as a chase (chase.ts), one exemption at a time, on small positions. */
import { describe, expect, it } from 'vitest';
import { chasedBy } from '../../src/game/chase.js';
import { makeSquareName, parseIccs, squaresOf } from '../../src/rules/index.js';
import { positionOf } from '../helpers/positions.js';

/** The squares (ICCS names) the move `iccs` chases on `fen`. */
function chased(fen: string, iccs: string): string[] {
  const pos = { value: positionOf(fen) };
  const move = parseIccs(iccs);
  if (!move.ok || !pos.value.isLegal(move.value)) throw new Error(`${iccs} is not legal on ${fen}`);
  const before = pos.value.toSetup().board;
  pos.value.play(move.value);
  return [...squaresOf(chasedBy(before, pos.value.toSetup().board, move.value))].map(makeSquareName);
}

describe('chase detection', () => {
  it('a horse attacking a chariot chases it even when it is protected', () => {
    expect(chased('2r1k4/9/9/2r6/9/9/3N5/9/9/3K5 w - - 0 1', 'd3e5')).toEqual(['c6']);
  });

  it('a chariot attacking a protected horse does not chase; an unprotected one it does', () => {
    expect(chased('2r1k4/9/9/2n6/9/9/8R/9/9/3K5 w - - 0 1', 'i3i6')).toEqual([]);
    expect(chased('4k4/9/9/2n6/9/9/8R/9/9/3K5 w - - 0 1', 'i3i6')).toEqual(['c6']);
  });

  it('a protector pinned to its general does not protect', () => {
    expect(chased('R1r1k4/9/9/2n6/9/9/8R/9/9/3K5 w - - 0 1', 'i3i6')).toEqual(['c6']);
  });

  it('attacking a chariot with a chariot is an offer to exchange, not a chase', () => {
    expect(chased('4k4/9/9/2r6/9/9/8R/9/9/3K5 w - - 0 1', 'i3i6')).toEqual([]);
  });

  it('the general is never a target', () => {
    expect(chased('4k4/9/9/1N7/9/9/9/9/9/3K5 w - - 0 1', 'b6c8')).toEqual([]);
  });

  it('a soldier is a target only once it has crossed the river', () => {
    expect(chased('4k4/9/9/p8/9/9/8R/9/9/3K5 w - - 0 1', 'i3i6')).toEqual([]);
    expect(chased('4k4/9/9/9/9/p8/9/8R/9/3K5 w - - 0 1', 'i2i4')).toEqual(['a4']);
  });

  it('generals and soldiers may chase freely', () => {
    expect(chased('4k4/9/2n6/9/2P6/9/9/9/9/3K5 w - - 0 1', 'c5c6')).toEqual([]);
    expect(chased('3k5/9/9/9/9/9/9/9/3n5/4K4 w - - 0 1', 'e0e1')).toEqual([]);
  });

  it('only new attacks count: a chariot sliding along the line it already attacked on', () => {
    expect(chased('4k4/9/9/2n5R/9/9/9/9/9/3K5 w - - 0 1', 'i6h6')).toEqual([]);
  });

  it('a discovered attack chases', () => {
    // The horse steps off the file and uncovers the chariot behind it.
    expect(chased('4k4/9/9/2n6/9/9/2N6/9/9/2R2K3 w - - 0 1', 'c3e4')).toEqual(['c6']);
  });
});
