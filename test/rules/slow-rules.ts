import type { Color, Move, Piece, Square } from '../../src/rules/index.js';
/**
 * A slow xiangqi rules oracle written straight from the rules text (2.2, 3.1, 4.1.2) for tests: plain
 * 90-square boards, no tables, no mailbox, nothing shared with src/rules/position.ts. "Is square X
 * attacked" is answered by asking every enemy piece whether its own movement reaches X.
 */

export type Board = readonly (Piece | undefined)[];

const fileOf = (sq: Square): number => sq % 9;
const rankOf = (sq: Square): number => Math.floor(sq / 9);
const at = (board: Board, file: number, rank: number): Piece | undefined => board[rank * 9 + file];
const inPalace = (color: Color, file: number, rank: number): boolean =>
  file >= 3 && file <= 5 && (color === 'red' ? rank <= 2 : rank >= 7);
const onOwnHalf = (color: Color, rank: number): boolean => (color === 'red' ? rank <= 4 : rank >= 5);

/** Pieces strictly between two squares on one file or rank. */
function piecesBetween(board: Board, from: Square, to: Square): number {
  const df = Math.sign(fileOf(to) - fileOf(from));
  const dr = Math.sign(rankOf(to) - rankOf(from));
  let n = 0;
  for (
    let f = fileOf(from) + df, r = rankOf(from) + dr;
    f !== fileOf(to) || r !== rankOf(to);
    f += df, r += dr
  ) {
    if (at(board, f, r)) n++;
  }
  return n;
}

/**
 * Could the piece on `from` go to `to` by its movement rule (rule 2.2), whatever stands on `to`?
 * A cannon needs exactly one screen when `to` is occupied and none when it is empty.
 */
export function reaches(board: Board, from: Square, to: Square): boolean {
  const piece = board[from];
  if (!piece || from === to) return false;
  const df = fileOf(to) - fileOf(from);
  const dr = rankOf(to) - rankOf(from);
  const adf = Math.abs(df);
  const adr = Math.abs(dr);
  switch (piece.role) {
    case 'king':
      return adf + adr === 1 && inPalace(piece.color, fileOf(to), rankOf(to));
    case 'advisor':
      return adf === 1 && adr === 1 && inPalace(piece.color, fileOf(to), rankOf(to));
    case 'elephant':
      return (
        adf === 2 &&
        adr === 2 &&
        onOwnHalf(piece.color, rankOf(to)) &&
        !at(board, fileOf(from) + df / 2, rankOf(from) + dr / 2)
      );
    case 'horse': {
      if (!((adf === 1 && adr === 2) || (adf === 2 && adr === 1))) return false;
      const leg =
        adr === 2
          ? at(board, fileOf(from), rankOf(from) + dr / 2)
          : at(board, fileOf(from) + df / 2, rankOf(from));
      return !leg;
    }
    case 'chariot':
      return (df === 0) !== (dr === 0) && piecesBetween(board, from, to) === 0;
    case 'cannon':
      return (df === 0) !== (dr === 0) && piecesBetween(board, from, to) === (board[to] ? 1 : 0);
    case 'pawn': {
      const ahead = piece.color === 'red' ? 1 : -1;
      if (df === 0 && dr === ahead) return true;
      return dr === 0 && adf === 1 && !onOwnHalf(piece.color, rankOf(from));
    }
  }
}

/** Is `target` attacked by any piece of colour `by`? (Facing generals are separate: `generalsFacing`.) */
export function attackedBy(board: Board, target: Square, by: Color): boolean {
  for (let sq = 0; sq < 90; sq++) {
    if (board[sq]?.color === by && reaches(board, sq, target)) return true;
  }
  return false;
}

export function generalSquare(board: Board, color: Color): Square {
  const sq = board.findIndex((p) => p?.color === color && p.role === 'king');
  if (sq < 0) throw new Error(`no ${color} general`);
  return sq;
}

/** The two generals on one file with nothing between them (forbidden by rule 2.2). */
export function generalsFacing(board: Board): boolean {
  const red = generalSquare(board, 'red');
  const black = generalSquare(board, 'black');
  return fileOf(red) === fileOf(black) && piecesBetween(board, red, black) === 0;
}

export function afterMove(board: Board, move: Move): Board {
  const next = board.slice();
  next[move.to] = next[move.from];
  next[move.from] = undefined;
  return next;
}

/** Does playing `move` leave the mover's general attacked or the generals facing? */
export function exposesGeneral(board: Board, move: Move): boolean {
  const mover = board[move.from]!.color;
  const next = afterMove(board, move);
  return (
    generalsFacing(next) || attackedBy(next, generalSquare(next, mover), mover === 'red' ? 'black' : 'red')
  );
}

/** Every legal move of `turn`, by brute force over all 90×90 pairs. */
export function slowLegalMoves(board: Board, turn: Color): Move[] {
  const moves: Move[] = [];
  for (let from = 0; from < 90; from++) {
    if (board[from]?.color !== turn) continue;
    for (let to = 0; to < 90; to++) {
      if (board[to]?.color === turn || !reaches(board, from, to)) continue;
      if (!exposesGeneral(board, { from, to })) moves.push({ from, to });
    }
  }
  return moves;
}
