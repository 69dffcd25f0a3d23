/**
 * The internal 16×16 mailbox: files 3..11 and ranks 3..12 hold the 90 intersections, the rest is
 * padding that stops rays, horse jumps and elephant jumps without bounds checks (XQWLight's layout).
 * Everything here is computed once at load.
 */
import { makeSquare, type Role, type Square } from './types.js';

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
    if (file >= 3 && file <= 5 && (rank <= 2 || rank >= 7)) IN_PALACE[i] = 1;
    HOME[rank <= 4 ? 0 : 1][i] = 1;
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
