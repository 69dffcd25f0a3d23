/** Sets of the 90 intersections as bigints (bit `sq` set): what attacks and chases are made of. */
import type { Square } from './types.js';

export type SquareSet = bigint;

export const EMPTY_SET: SquareSet = 0n;
export const squareBit = (sq: Square): SquareSet => 1n << BigInt(sq);
export const hasSquare = (set: SquareSet, sq: Square): boolean => ((set >> BigInt(sq)) & 1n) === 1n;

export function squareSetOf(squares: Iterable<Square>): SquareSet {
  let set = EMPTY_SET;
  for (const sq of squares) set |= squareBit(sq);
  return set;
}

export function* squaresOf(set: SquareSet): Generator<Square> {
  let s = set;
  let sq = 0;
  while (s) {
    if (s & 1n) yield sq;
    s >>= 1n;
    sq++;
  }
}

export const countSquares = (set: SquareSet): number => {
  let n = 0;
  for (const _ of squaresOf(set)) n++;
  return n;
};
