/**
 * What WXF and Chinese notation share: a move is named by the moving piece (its role, its file
 * counted from the mover's right, and, for like pieces on one file, which of them), a direction
 * (forward, back, sideways) and a target (a file, or a number of steps). Both notations are
 * generated from `describeMove` and parsed into a `MoveDescriptor` matched against the legal moves.
 */
import {
  type Color,
  type Move,
  makeSquare,
  type Position,
  type Role,
  type Square,
  squareFile,
  squareRank,
} from '../rules/index.js';
import { type CodedError, err, ok, type Result } from '../util/result.js';

export type NotationErrorCode = 'notation_syntax' | 'no_such_move' | 'ambiguous';
export interface NotationError extends CodedError<NotationErrorCode> {
  /** The text that was read, as given. */
  readonly text: string;
}

export const notationError = (
  code: NotationErrorCode,
  text: string,
  message: string,
): { ok: false; error: NotationError } => err({ code, text, message });

/** File 1..9 counted from the mover's right (Red's right is file i, Black's right is file a). */
export const moverFile = (file: number, color: Color): number => (color === 'red' ? 9 - file : file + 1);

/** How far a rank is from the mover's back rank. */
export const aheadOf = (rank: number, color: Color): number => (color === 'red' ? rank : 9 - rank);

/** Pieces that move diagonally: their target is always a file. */
export const movesDiagonally = (role: Role): boolean =>
  role === 'horse' || role === 'elephant' || role === 'advisor';

/** Which of several like pieces on one file. */
export type Which =
  /** 前 / 后 / 中: the foremost, the rearmost, the middle one of three (or five). */
  | 'front'
  | 'rear'
  | 'middle'
  /** WXF `+` / `-`: front/rear of two or three; second foremost/rearmost of four or five. */
  | 'plus'
  | 'minus'
  /** WXF `++` / `--`: foremost / rearmost of four or five. */
  | 'plusplus'
  | 'minusminus'
  /** 一二三四五: the n-th counted from the front. */
  | 1
  | 2
  | 3
  | 4
  | 5;

export type Direction = '+' | '-' | '.';

export interface MoveDescriptor {
  readonly role: Role;
  /** The file of the moving piece, 1..9 from the mover's right. */
  readonly file?: number;
  readonly which?: Which;
  readonly direction: Direction;
  /** Target file (sideways, or a diagonal mover) or number of steps. */
  readonly target: number;
}

/** The mover's like pieces on the file of `from`, foremost first. */
export function likePiecesOnFile(pos: Position, from: Square): Square[] {
  const piece = pos.pieceAt(from);
  if (!piece) return [];
  const file = squareFile(from);
  const out: Square[] = [];
  for (let k = 9; k >= 0; k--) {
    const rank = piece.color === 'red' ? k : 9 - k;
    const sq = makeSquare(file, rank);
    const p = pos.pieceAt(sq);
    if (p && p.color === piece.color && p.role === piece.role) out.push(sq);
  }
  return out;
}

/** Number of files on which `color` has two or more pawns. */
export function stackedPawnFiles(pos: Position, color: Color): number {
  const perFile = new Array<number>(9).fill(0);
  for (const sq of pos.piecesOf(color, 'pawn')) perFile[squareFile(sq)]!++;
  return perFile.filter((n) => n >= 2).length;
}

/** Everything either notation needs to name a move, from the position before it. */
export interface MoveFacts {
  readonly color: Color;
  readonly role: Role;
  readonly file: number;
  /** Position among like pieces on the file, 0 = foremost, and how many there are. */
  readonly index: number;
  readonly count: number;
  /** Pawns only: how many files hold two or more of the mover's pawns. */
  readonly stackedFiles: number;
  readonly direction: Direction;
  readonly target: number;
}

/** Facts of a move of the side to move; undefined when `from` holds none of its pieces. */
export function describeMove(pos: Position, move: Move): MoveFacts | undefined {
  const piece = pos.pieceAt(move.from);
  if (!piece || piece.color !== pos.turn) return undefined;
  const { color, role } = piece;
  const fromAhead = aheadOf(squareRank(move.from), color);
  const toAhead = aheadOf(squareRank(move.to), color);
  const direction: Direction = toAhead > fromAhead ? '+' : toAhead < fromAhead ? '-' : '.';
  const target =
    direction === '.' || movesDiagonally(role)
      ? moverFile(squareFile(move.to), color)
      : Math.abs(toAhead - fromAhead);
  let index = 0;
  let count = 1;
  // Advisors and elephants are never told apart: direction and target always do it.
  if (role !== 'advisor' && role !== 'elephant') {
    const like = likePiecesOnFile(pos, move.from);
    index = like.indexOf(move.from);
    count = like.length;
  }
  const stackedFiles = role === 'pawn' && count >= 2 ? stackedPawnFiles(pos, color) : 0;
  return {
    color,
    role,
    file: moverFile(squareFile(move.from), color),
    index,
    count,
    stackedFiles,
    direction,
    target,
  };
}

function whichMatches(which: Which, index: number, count: number): boolean {
  if (count < 2) return false;
  switch (which) {
    case 'front':
      return index === 0;
    case 'rear':
      return index === count - 1;
    case 'middle':
      return count % 2 === 1 && index === (count - 1) / 2;
    case 'plus':
      return index === (count <= 3 ? 0 : 1);
    case 'minus':
      return index === (count <= 3 ? count - 1 : count - 2);
    case 'plusplus':
      return count >= 4 && index === 0;
    case 'minusminus':
      return count >= 4 && index === count - 1;
    default:
      return index === which - 1;
  }
}

function descriptorMatches(d: MoveDescriptor, f: MoveFacts): boolean {
  if (d.role !== f.role || d.direction !== f.direction || d.target !== f.target) return false;
  if (d.file !== undefined && d.file !== f.file) return false;
  if (d.which !== undefined) return whichMatches(d.which, f.index, f.count);
  // A plain file on three or five like pawns names the middle one (WXF `P3.4`).
  if (f.count >= 3 && f.count % 2 === 1) return f.index === (f.count - 1) / 2;
  return true;
}

/** The one legal move a descriptor names. */
export function resolveDescriptor(
  pos: Position,
  d: MoveDescriptor,
  text: string,
): Result<Move, NotationError> {
  // Cheap tests on the raw move list first: most legal moves are of another piece.
  const candidates: Move[] = [];
  for (const m of pos.legalMoves()) {
    if (pos.pieceAt(m.from)?.role !== d.role) continue;
    if (d.file !== undefined && d.which === undefined && moverFile(squareFile(m.from), pos.turn) !== d.file)
      continue;
    candidates.push(m);
  }
  const found = candidates.filter((move) => {
    const facts = describeMove(pos, move);
    return facts !== undefined && descriptorMatches(d, facts);
  });
  if (found.length === 1) return ok(found[0]!);
  if (found.length === 0) {
    return notationError('no_such_move', text, `'${text}' names no legal move of ${pos.turn} here`);
  }
  return notationError(
    'ambiguous',
    text,
    `'${text}' could be any of ${found.length} legal moves of ${pos.turn}`,
  );
}
