/**
 * Attacks on a plain 90-square board, for explanations (which piece gives check, which piece would
 * take the general). Clear rather than fast: move generation has its own attack test in position.ts.
 */
import type { Setup } from './setup.js';
import { type Color, makeSquare, type Square, squareFile, squareRank } from './types.js';

export type Board = Setup['board'];

const inPalace = (color: Color, file: number, rank: number): boolean =>
  file >= 3 && file <= 5 && (color === 'red' ? rank <= 2 : rank >= 7);
const onOwnHalf = (color: Color, rank: number): boolean => (color === 'red' ? rank <= 4 : rank >= 5);
const onBoard = (file: number, rank: number): boolean => file >= 0 && file < 9 && rank >= 0 && rank < 10;

/**
 * The squares of the pieces of colour `by` that could capture a piece standing on `target` (rule 2.3):
 * for a cannon that means exactly one screen between. The generals' facing is not an attack here:
 * see `generalsFacing`.
 */
export function attackersOf(board: Board, target: Square, by: Color): Square[] {
  const out: Square[] = [];
  const tf = squareFile(target);
  const tr = squareRank(target);
  const has = (file: number, rank: number, role: string): boolean => {
    if (!onBoard(file, rank)) return false;
    const p = board[makeSquare(file, rank)];
    return p !== undefined && p.color === by && p.role === role;
  };
  const empty = (file: number, rank: number): boolean => board[makeSquare(file, rank)] === undefined;

  // Lines: the first piece met may be a chariot (or a general one step away, inside its palace);
  // the piece after the first one met may be a cannon.
  for (const [df, dr] of [
    [1, 0],
    [-1, 0],
    [0, 1],
    [0, -1],
  ] as const) {
    let screens = 0;
    for (let f = tf + df, r = tr + dr, step = 1; onBoard(f, r); f += df, r += dr, step++) {
      if (empty(f, r)) continue;
      if (screens === 0) {
        if (has(f, r, 'chariot')) out.push(makeSquare(f, r));
        if (step === 1 && has(f, r, 'king') && inPalace(by, tf, tr)) out.push(makeSquare(f, r));
        screens = 1;
      } else {
        if (has(f, r, 'cannon')) out.push(makeSquare(f, r));
        break;
      }
    }
  }
  // Horses: from one point straight and one diagonal away, their leg (next to the horse, towards
  // the target along the long side) empty.
  for (const [df, dr] of [
    [1, 2],
    [-1, 2],
    [1, -2],
    [-1, -2],
    [2, 1],
    [-2, 1],
    [2, -1],
    [-2, -1],
  ] as const) {
    const hf = tf - df;
    const hr = tr - dr;
    if (!has(hf, hr, 'horse')) continue;
    const legF = Math.abs(df) === 2 ? hf + df / 2 : hf;
    const legR = Math.abs(dr) === 2 ? hr + dr / 2 : hr;
    if (empty(legF, legR)) out.push(makeSquare(hf, hr));
  }
  // Advisors and elephants guard their own palace and half only.
  for (const [df, dr] of [
    [1, 1],
    [1, -1],
    [-1, 1],
    [-1, -1],
  ] as const) {
    if (inPalace(by, tf, tr) && has(tf + df, tr + dr, 'advisor')) out.push(makeSquare(tf + df, tr + dr));
    if (onOwnHalf(by, tr) && has(tf + 2 * df, tr + 2 * dr, 'elephant') && empty(tf + df, tr + dr)) {
      out.push(makeSquare(tf + 2 * df, tr + 2 * dr));
    }
  }
  // Soldiers: from the point behind the target (as `by` moves), or beside it once across the river.
  const behind = by === 'red' ? -1 : 1;
  if (has(tf, tr + behind, 'pawn')) out.push(makeSquare(tf, tr + behind));
  for (const df of [-1, 1]) {
    if (has(tf + df, tr, 'pawn') && !onOwnHalf(by, tr)) out.push(makeSquare(tf + df, tr));
  }
  return out.sort((a, b) => a - b);
}

export function generalOf(board: Board, color: Color): Square | undefined {
  const sq = board.findIndex((p) => p?.color === color && p.role === 'king');
  return sq < 0 ? undefined : sq;
}

/** Do the two generals stand on one file with nothing between them (forbidden by rule 2.2)? */
export function generalsFacing(board: Board): boolean {
  const red = generalOf(board, 'red');
  const black = generalOf(board, 'black');
  if (red === undefined || black === undefined || squareFile(red) !== squareFile(black)) return false;
  const [low, high] = red < black ? [red, black] : [black, red];
  for (let sq = low + 9; sq < high; sq += 9) if (board[sq]) return false;
  return true;
}
