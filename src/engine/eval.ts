/**
 * Static evaluation: material plus a piece-square table per role, in centipawns.
 *
 * Everything is folded into one table, `PIECE_SCORE[id * 256 + mailbox]`, signed from Red's view
 * (Red's pieces count up, Black's down), so the search keeps the score incrementally:
 * a move f→t of piece `id` capturing `victim` changes it by
 * `PIECE_SCORE[id,t] − PIECE_SCORE[id,f] − PIECE_SCORE[victim,t]` (see `moveDelta`).
 */
import { BLACK, FROM_MAILBOX, RED, ROLE_OF } from '../rules/geometry.js';
import type { Position } from '../rules/position.js';

/** Material by role code (geometry.ts: 1 king … 7 soldier); a soldier doubles across the river. */
export const MATERIAL = [0, 0, 200, 200, 400, 900, 450, 100] as const;
const CROSSED_SOLDIER = 200;

// Piece-square bonuses from Red's view, written as the board looks from Red's side: the first row
// is rank 9 (Black's back rank), the last rank 0. Black reads them mirrored (rank 9 − r).
// biome-ignore format: board-shaped tables
const PST: readonly (readonly number[])[] = [
  [], // unused
  // general: stay home on the centre file
  [
    0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, -15, -20, -15, 0, 0, 0,
    0, 0, 0, -8, -6, -8, 0, 0, 0,
    0, 0, 0, -3, 2, -3, 0, 0, 0,
  ],
  // advisor: the palace centre guards best
  [
    0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, -2, 0, -2, 0, 0, 0,
    0, 0, 0, 0, 4, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0,
  ],
  // elephant: the centre point links the pair
  [
    0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, -2, 0, 0, 0, -2, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0,
    -2, 0, 0, 0, 4, 0, 0, 0, -2,
    0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0,
  ],
  // horse: forward and central, near the enemy palace; not on its own back rank's edge
  [
    4, 8, 16, 12, 4, 12, 16, 8, 4,
    4, 10, 28, 16, 8, 16, 28, 10, 4,
    12, 14, 16, 20, 18, 20, 16, 14, 12,
    8, 24, 18, 24, 20, 24, 18, 24, 8,
    6, 16, 14, 18, 16, 18, 14, 16, 6,
    4, 12, 16, 14, 12, 14, 16, 12, 4,
    2, 6, 8, 6, 10, 6, 8, 6, 2,
    4, 2, 8, 8, 4, 8, 8, 2, 4,
    0, 2, 4, 4, -10, 4, 4, 2, 0,
    0, -4, 0, 0, 0, 0, 0, -4, 0,
  ],
  // chariot: open central and palace files, the enemy's second rank
  [
    6, 8, 7, 13, 14, 13, 7, 8, 6,
    6, 12, 9, 16, 33, 16, 9, 12, 6,
    6, 8, 7, 14, 16, 14, 7, 8, 6,
    6, 13, 13, 16, 16, 16, 13, 13, 6,
    8, 11, 11, 14, 15, 14, 11, 11, 8,
    8, 12, 12, 14, 15, 14, 12, 12, 8,
    4, 9, 4, 12, 14, 12, 4, 9, 4,
    -2, 8, 4, 12, 12, 12, 4, 8, -2,
    5, 8, 6, 12, 0, 12, 6, 8, 5,
    -6, 6, 4, 12, 0, 12, 4, 6, -6,
  ],
  // cannon: the central file and its own river bank; weak deep in the enemy palace
  [
    6, 4, 0, -10, -12, -10, 0, 4, 6,
    2, 2, 0, -4, -14, -4, 0, 2, 2,
    2, 2, 0, -10, -8, -10, 0, 2, 2,
    0, 0, -2, 4, 10, 4, -2, 0, 0,
    0, 0, 0, 2, 8, 2, 0, 0, 0,
    -2, 0, 4, 2, 6, 2, 4, 0, -2,
    0, 0, 0, 2, 4, 2, 0, 0, 0,
    4, 0, 8, 6, 10, 6, 8, 0, 4,
    0, 2, 4, 6, 6, 6, 4, 2, 0,
    0, 0, 2, 6, 6, 6, 2, 0, 0,
  ],
  // soldier (on top of 100, or 200 across the river): near the enemy palace, not on the last rank
  [
    0, 0, 0, 2, 4, 2, 0, 0, 0,
    20, 30, 45, 55, 55, 55, 45, 30, 20,
    20, 30, 40, 50, 50, 50, 40, 30, 20,
    10, 20, 30, 35, 40, 35, 30, 20, 10,
    0, 10, 15, 20, 20, 20, 15, 10, 0,
    0, 0, -5, 0, 10, 0, -5, 0, 0,
    0, 0, -5, 0, 5, 0, -5, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0,
  ],
];

/** Signed value (material + placement, Red's view) of piece id on each mailbox index; 0 for id 0. */
export const PIECE_SCORE = new Int16Array(48 * 256);
for (let id = RED; id < BLACK + 16; id++) {
  const role = ROLE_OF[id]!;
  if (!role) continue;
  const black = id >= BLACK;
  for (let i = 0; i < 256; i++) {
    const sq = FROM_MAILBOX[i]!;
    if (sq === 255) continue;
    const file = sq % 9;
    const rank = Math.floor(sq / 9);
    const ownRank = black ? 9 - rank : rank;
    const material = role === 7 && ownRank >= 5 ? CROSSED_SOLDIER : MATERIAL[role]!;
    const bonus = PST[role]![(9 - ownRank) * 9 + file]!;
    PIECE_SCORE[id * 256 + i] = black ? -(material + bonus) : material + bonus;
  }
}

/** The evaluation of the whole board from Red's view (the search then updates it per move). */
export function evaluateRed(pos: Position): number {
  let score = 0;
  for (let id = RED; id < BLACK + 16; id++) {
    const i = pos.squares[id]!;
    if (i) score += PIECE_SCORE[id * 256 + i]!;
  }
  return score;
}

/** The evaluation from the side to move's view. */
export function evaluate(pos: Position): number {
  const red = evaluateRed(pos);
  return pos.side === 0 ? red : -red;
}

/** Change of the Red-view score when encoded move `m` is played on `board` (before it is made). */
export function moveDelta(board: Uint8Array, m: number): number {
  const f = m & 255;
  const t = (m >> 8) & 255;
  const id = board[f]!;
  return PIECE_SCORE[id * 256 + t]! - PIECE_SCORE[id * 256 + f]! - PIECE_SCORE[board[t]! * 256 + t]!;
}
