import { Position } from '../../src/rules/index.js';
/** A position from a FEN the test knows to be good (a bad one is a bug in the test: it throws). */

export function positionOf(fen: string): Position {
  const pos = Position.fromFen(fen);
  if (!pos.ok) throw new Error(`${fen}: ${pos.error.message}`);
  return pos.value;
}
