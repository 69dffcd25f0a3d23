/**
 * Attacks on a plain 90-square board, written to be read: which points a piece attacks, which
 * pieces attack a point, facing generals. Explanations (which piece gives check), chase detection
 * (game/chase.ts) and the tests of the fast move generator (position.ts, which has its own mailbox
 * attack test and is property-tested against this module) use it.
 */
import { between, crossedRiver, inPalace, onOwnHalf, squareAt } from './geometry.js';
import { EMPTY_SET, type SquareSet, squareBit, squaresOf } from './squareset.js';
import { type Color, type Piece, type Square, squareFile, squareRank } from './types.js';

/** 90 intersections, `undefined` where empty (as `Setup.board`). */
export type Board = readonly (Piece | undefined)[];

const ORTHO: readonly (readonly [number, number])[] = [
  [0, 1],
  [0, -1],
  [1, 0],
  [-1, 0],
];
const DIAG: readonly (readonly [number, number])[] = [
  [1, 1],
  [1, -1],
  [-1, 1],
  [-1, -1],
];

/**
 * The points a `piece` standing on `sq` attacks (could capture on, whatever stands there) on
 * `board` (rule 2.2): a cannon needs exactly one screen. The generals' facing along an open file
 * is not an attack here: see `generalsFacing`.
 */
export function attacksFrom(board: Board, sq: Square, piece: Piece): SquareSet {
  const f = squareFile(sq);
  const r = squareRank(sq);
  let set = EMPTY_SET;
  switch (piece.role) {
    case 'king':
    case 'advisor':
      // One step along a line (general) or diagonally (advisor), inside its own palace.
      for (const [df, dr] of piece.role === 'king' ? ORTHO : DIAG) {
        const t = squareAt(f + df, r + dr);
        if (t !== undefined && inPalace(piece.color, t)) set |= squareBit(t);
      }
      return set;
    case 'elephant':
      // Two steps diagonally, its eye empty, never across the river.
      for (const [df, dr] of DIAG) {
        const eye = squareAt(f + df, r + dr);
        const t = squareAt(f + 2 * df, r + 2 * dr);
        if (eye === undefined || t === undefined || board[eye] || !onOwnHalf(piece.color, t)) continue;
        set |= squareBit(t);
      }
      return set;
    case 'horse':
      // One step along a line (its leg empty), then one diagonally outwards.
      for (const [df, dr] of ORTHO) {
        const leg = squareAt(f + df, r + dr);
        if (leg === undefined || board[leg]) continue;
        for (const side of [-1, 1]) {
          const t = df === 0 ? squareAt(f + side, r + 2 * dr) : squareAt(f + 2 * df, r + side);
          if (t !== undefined) set |= squareBit(t);
        }
      }
      return set;
    case 'chariot':
    case 'cannon':
      // Along a line: the chariot up to the first piece met, the cannon the piece after it.
      for (const [df, dr] of ORTHO) {
        let screens = 0;
        for (let k = 1; ; k++) {
          const t = squareAt(f + k * df, r + k * dr);
          if (t === undefined) break;
          if (piece.role === 'chariot') {
            set |= squareBit(t);
            if (board[t]) break;
          } else if (board[t]) {
            if (screens === 1) {
              set |= squareBit(t);
              break;
            }
            screens++;
          }
        }
      }
      return set;
    case 'pawn': {
      // Forward, and sideways once across the river.
      const ahead = squareAt(f, r + (piece.color === 'red' ? 1 : -1));
      if (ahead !== undefined) set |= squareBit(ahead);
      if (crossedRiver(piece.color, sq)) {
        for (const side of [-1, 1]) {
          const t = squareAt(f + side, r);
          if (t !== undefined) set |= squareBit(t);
        }
      }
      return set;
    }
  }
}

/** The pieces of colour `by` that attack `target` on `board`, as a set. */
export function attackersTo(board: Board, target: Square, by: Color): SquareSet {
  let set = EMPTY_SET;
  const bit = squareBit(target);
  for (let sq = 0; sq < 90; sq++) {
    const p = board[sq];
    if (p && p.color === by && attacksFrom(board, sq, p) & bit) set |= squareBit(sq);
  }
  return set;
}

/**
 * The squares of the pieces of colour `by` that could capture a piece standing on `target` (rule
 * 2.3), in ascending order. The generals' facing is not an attack here: see `generalsFacing`.
 */
export const attackersOf = (board: Board, target: Square, by: Color): Square[] => [
  ...squaresOf(attackersTo(board, target, by)),
];

export function generalOf(board: Board, color: Color): Square | undefined {
  const sq = board.findIndex((p) => p?.color === color && p.role === 'king');
  return sq < 0 ? undefined : sq;
}

/** Do the two generals stand on one file with nothing between them (forbidden by rule 2.2)? */
export function generalsFacing(board: Board): boolean {
  const red = generalOf(board, 'red');
  const black = generalOf(board, 'black');
  if (red === undefined || black === undefined || squareFile(red) !== squareFile(black)) return false;
  return between(red, black).every((sq) => board[sq] === undefined);
}
