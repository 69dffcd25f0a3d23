/**
 * The board's geometry, written once: the palaces, the river and the points between two points on
 * a plain 90-square board (what explanations, chases and attacks use), then the internal 16×16
 * mailbox of move generation built from them. In the mailbox, files 3..11 and ranks 3..12 hold the
 * 90 intersections, the rest is padding that stops rays, horse jumps and elephant jumps without
 * bounds checks (XQWLight's layout). Everything here is computed once at load.
 */
import { type Color, makeSquare, type Role, type Square, squareFile, squareRank } from './types.js';

// ---------------------------------------------------------------- plain squares (0..89)

/** The square at `file`, `rank`, or undefined off the board. */
export const squareAt = (file: number, rank: number): Square | undefined =>
  file >= 0 && file < 9 && rank >= 0 && rank < 10 ? makeSquare(file, rank) : undefined;

/** Inside `color`'s palace: files d–f of its three back ranks (rule 1.2). */
export function inPalace(color: Color, sq: Square): boolean {
  const file = squareFile(sq);
  const rank = squareRank(sq);
  return file >= 3 && file <= 5 && (color === 'red' ? rank <= 2 : rank >= 7);
}

/** On `color`'s side of the river (ranks 0–4 for red, 5–9 for black). */
export const onOwnHalf = (color: Color, sq: Square): boolean =>
  color === 'red' ? squareRank(sq) <= 4 : squareRank(sq) >= 5;

/** Across the river for `color`: where its soldiers may move sideways and elephants never go. */
export const crossedRiver = (color: Color, sq: Square): boolean => !onOwnHalf(color, sq);

/** The squares strictly between two squares of one file or rank, in order from `a`; [] otherwise. */
export function between(a: Square, b: Square): Square[] {
  const df = Math.sign(squareFile(b) - squareFile(a));
  const dr = Math.sign(squareRank(b) - squareRank(a));
  if (df !== 0 && dr !== 0) return [];
  const out: Square[] = [];
  for (let sq = a + df + 9 * dr; sq !== b; sq += df + 9 * dr) out.push(sq);
  return out;
}

// ---------------------------------------------------------------- the mailbox

/** Square 0..89 → mailbox index. */
export const TO_MAILBOX = new Uint8Array(90);
/** Mailbox index → square 0..89, or 255 off the board. */
export const FROM_MAILBOX = new Uint8Array(256).fill(255);

export const IN_BOARD = new Uint8Array(256);
/** 1 inside either palace. */
export const IN_PALACE = new Uint8Array(256);
/** HOME[0] red's half (ranks 0–4), HOME[1] black's half (ranks 5–9). */
export const HOME: readonly [Uint8Array, Uint8Array] = [new Uint8Array(256), new Uint8Array(256)];

for (let rank = 0; rank < 10; rank++) {
  for (let file = 0; file < 9; file++) {
    const i = (rank + 3) * 16 + file + 3;
    const sq: Square = makeSquare(file, rank);
    TO_MAILBOX[sq] = i;
    FROM_MAILBOX[i] = sq;
    IN_BOARD[i] = 1;
    if (inPalace('red', sq) || inPalace('black', sq)) IN_PALACE[i] = 1;
    HOME[onOwnHalf('red', sq) ? 0 : 1][i] = 1;
  }
}

export const ORTHO = [-16, -1, 1, 16] as const;
export const DIAG = [-17, -15, 15, 17] as const;
/** Forward step for red (towards rank 9) and black. */
export const forward = (side: number): number => 16 - 32 * side;

/** Has a pawn of side `side` (0 red, 1 black) on mailbox index `i` crossed the river? */
export const crossed = (side: number, i: number): boolean => HOME[side]![i] === 0;

// Piece ids on the mailbox: fixed slots like XQWLight. Red ids 16..31, black 32..47; the slot
// (id & 15) fixes the role. Piece counts never grow in xiangqi (no promotion), so a legal
// position always fits the slots.
export const RED = 16;
export const BLACK = 32;
export const OFF = 64;
/** Colour bit of side 0 (red) or 1 (black). */
export const sideBit = (side: number): number => 16 << side;

export const KING = 1;
export const ADVISOR = 2;
export const ELEPHANT = 3;
export const HORSE = 4;
export const CHARIOT = 5;
export const CANNON = 6;
export const PAWN = 7;

export const ROLE_CODES: Record<Role, number> = {
  king: KING,
  advisor: ADVISOR,
  elephant: ELEPHANT,
  horse: HORSE,
  chariot: CHARIOT,
  cannon: CANNON,
  pawn: PAWN,
};
export const CODE_ROLES: readonly Role[] = [
  'king', // unused index 0
  'king',
  'advisor',
  'elephant',
  'horse',
  'chariot',
  'cannon',
  'pawn',
];

/** Slots of each role within a side: [first, count]. */
export const SLOTS: Record<Role, readonly [number, number]> = {
  king: [0, 1],
  advisor: [1, 2],
  elephant: [3, 2],
  horse: [5, 2],
  chariot: [7, 2],
  cannon: [9, 2],
  pawn: [11, 5],
};

/** Role code of a piece id (0 for empty and off-board). */
export const ROLE_OF = new Uint8Array(256);
for (const role of Object.keys(SLOTS) as Role[]) {
  const [first, count] = SLOTS[role];
  for (let k = 0; k < count; k++) {
    ROLE_OF[RED + first + k] = ROLE_CODES[role];
    ROLE_OF[BLACK + first + k] = ROLE_CODES[role];
  }
}

/** The seven points of each side's elephants and the five of its advisors. */
export function isElephantPoint(side: number, sq: Square): boolean {
  const file = sq % 9;
  const rank = Math.floor(sq / 9) - (side === 0 ? 0 : 5);
  if (rank === 0 || rank === 4) return file === 2 || file === 6;
  if (rank === 2) return file === 0 || file === 4 || file === 8;
  return false;
}

export function isAdvisorPoint(side: number, sq: Square): boolean {
  const file = sq % 9;
  const rank = Math.floor(sq / 9) - (side === 0 ? 0 : 7);
  if (rank === 0 || rank === 2) return file === 3 || file === 5;
  return rank === 1 && file === 4;
}
