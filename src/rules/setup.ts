/** A position as read from outside, before it is checked: what `parseFen` returns. */
import type { Color, Piece, Square } from './types.js';
import { makeSquare } from './types.js';

export interface Setup {
  /** 90 intersections indexed by `Square`; `undefined` is empty. */
  readonly board: readonly (Piece | undefined)[];
  readonly turn: Color;
  /** Plies since the last capture (FEN's halfmove clock). */
  readonly halfmoves: number;
  readonly fullmoves: number;
}

const BACK: Piece['role'][] = [
  'chariot',
  'horse',
  'elephant',
  'advisor',
  'king',
  'advisor',
  'elephant',
  'horse',
  'chariot',
];

/** The start position of rule 1.3. */
export function defaultSetup(): Setup {
  const board: (Piece | undefined)[] = new Array(90).fill(undefined);
  for (const [color, back, cannons, pawns] of [
    ['red', 0, 2, 3],
    ['black', 9, 7, 6],
  ] as const) {
    BACK.forEach((role, file) => {
      board[makeSquare(file, back)] = { color, role };
    });
    board[makeSquare(1, cannons)] = { color, role: 'cannon' };
    board[makeSquare(7, cannons)] = { color, role: 'cannon' };
    for (let file = 0; file < 9; file += 2) board[makeSquare(file, pawns)] = { color, role: 'pawn' };
  }
  return { board, turn: 'red', halfmoves: 0, fullmoves: 1 };
}

export const sameSquareContent = (a: Piece | undefined, b: Piece | undefined): boolean =>
  a === b || (a !== undefined && b !== undefined && a.color === b.color && a.role === b.role);

export function boardsEqual(a: Setup['board'], b: Setup['board']): boolean {
  for (let sq: Square = 0; sq < 90; sq++) if (!sameSquareContent(a[sq], b[sq])) return false;
  return true;
}
