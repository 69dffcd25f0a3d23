/** Colours, roles, pieces and squares of xiangqi (rules 1.1–1.2). Pure data, no I/O. */

export type Color = 'red' | 'black';

export type Role = 'king' | 'advisor' | 'elephant' | 'horse' | 'chariot' | 'cannon' | 'pawn';
export const ROLES: readonly Role[] = ['king', 'advisor', 'elephant', 'horse', 'chariot', 'cannon', 'pawn'];

/** The names players use in messages: general and soldier, not king and pawn. */
export const ROLE_NAMES: Record<Role, string> = {
  king: 'general',
  advisor: 'advisor',
  elephant: 'elephant',
  horse: 'horse',
  chariot: 'chariot',
  cannon: 'cannon',
  pawn: 'soldier',
};

export interface Piece {
  readonly color: Color;
  readonly role: Role;
}

/**
 * An intersection, 0..89: `rank * 9 + file`. File 0..8 is `a`..`i` from Red's left, rank 0..9
 * from Red's back rank (ICCS).
 */
export type Square = number;

export interface Move {
  readonly from: Square;
  readonly to: Square;
}

export const FILE_NAMES = 'abcdefghi';
export const FILES = 9;
export const RANKS = 10;
export const SQUARES = 90;

export const opposite = (c: Color): Color => (c === 'red' ? 'black' : 'red');
export const squareFile = (sq: Square): number => sq % 9;
export const squareRank = (sq: Square): number => Math.floor(sq / 9);
export const makeSquare = (file: number, rank: number): Square => rank * 9 + file;

export const isSquare = (sq: number): sq is Square => Number.isInteger(sq) && sq >= 0 && sq < 90;

/** `h2` → 25; undefined for anything that is not a square name. */
export function parseSquare(name: string): Square | undefined {
  if (name.length !== 2) return undefined;
  const file = FILE_NAMES.indexOf(name[0]!.toLowerCase());
  const rank = name.charCodeAt(1) - 48;
  if (file < 0 || rank < 0 || rank > 9) return undefined;
  return makeSquare(file, rank);
}

export const makeSquareName = (sq: Square): string => FILE_NAMES[squareFile(sq)]! + String(squareRank(sq));

/** Letters of FEN: K A B N R C P (E and H are accepted on input as elephant and horse). */
export const ROLE_LETTER: Record<Role, string> = {
  king: 'k',
  advisor: 'a',
  elephant: 'b',
  horse: 'n',
  chariot: 'r',
  cannon: 'c',
  pawn: 'p',
};

export function letterRole(ch: string): Role | undefined {
  switch (ch.toLowerCase()) {
    case 'k':
      return 'king';
    case 'a':
      return 'advisor';
    case 'b':
    case 'e':
      return 'elephant';
    case 'n':
    case 'h':
      return 'horse';
    case 'r':
      return 'chariot';
    case 'c':
      return 'cannon';
    case 'p':
      return 'pawn';
    default:
      return undefined;
  }
}

export const makePieceLetter = (p: Piece): string =>
  p.color === 'red' ? ROLE_LETTER[p.role].toUpperCase() : ROLE_LETTER[p.role];
