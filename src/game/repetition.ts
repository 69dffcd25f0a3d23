/**
 * Rules 4.1.7 and 4.2.3: judging a repetition by the Asian (AXF) rules.
 *
 * When a position occurs for the third time with the same side to move, the cycle is judged:
 * - a side that gave check with every one of its moves (perpetual check) loses; both: draw;
 * - otherwise a side whose every move chased one and the same enemy piece (perpetual chase, see
 *   chase.ts) loses; both: draw;
 * - so check against chase loses for the checker, and a cycle with neither is a draw.
 *
 * The window is that of Fairy-Stockfish (whose cases are `repetition.json`): the moves of the
 * side that completed the repetition from the one that led to the first occurrence of the
 * position, and the other side's moves inside the cycle. Chased pieces are followed through
 * their own moves, so "the same piece" is a piece, not a square.
 */

import {
  type Board,
  type Color,
  EMPTY_SET,
  type Move,
  type Square,
  type SquareSet,
  squaresOf,
} from '../rules/index.js';
import { chasedBy, undoMoveSquares } from './chase.js';

/** One position of a game: the start (no `move`) or the position after a move. */
export interface HistoryState {
  /** Zobrist key of pieces and side to move (`Position.hash`). */
  readonly hash: number;
  /** Board FEN + side: verifies a hash match. */
  readonly key: string;
  readonly board: Board;
  /** The side to move is in check. */
  readonly check: boolean;
  /** The move that led here (absent for the start position). */
  readonly move?: Move;
  /** Cache of `chasedBy` for this state's move. */
  chased?: SquareSet;
}

export interface RepetitionVerdict {
  /** The side that loses, or undefined for a draw. */
  readonly loser: Color | undefined;
  readonly reason: 'perpetual_check' | 'perpetual_chase' | 'repetition';
  /** How many plies back the first occurrence of the position is. */
  readonly cycle: number;
  /** Enemy pieces (squares, on the current board) each side chased with every move of the cycle. */
  readonly chased: Readonly<Record<Color, readonly Square[]>>;
  /** Which sides checked with every move of the cycle. */
  readonly perpetualCheck: Readonly<Record<Color, boolean>>;
}

const chasedAt = (states: readonly HistoryState[], k: number): SquareSet => {
  const state = states[k]!;
  if (!state.move) return EMPTY_SET;
  state.chased ??= chasedBy(states[k - 1]!.board, state.board, state.move);
  return state.chased;
};

/**
 * Judges the last state of `states` (states[0] is the game's start). `sinceCapture` is the number
 * of plies since the last capture: no repetition reaches across one. `occurrences` is how many
 * times the position must have occurred (3 by the rules). Returns undefined when the last
 * position has not occurred that often.
 */
export function judgeRepetition(
  states: readonly HistoryState[],
  sinceCapture: number,
  occurrences = 3,
): RepetitionVerdict | undefined {
  const n = states.length - 1;
  const end = Math.min(sinceCapture, n);
  if (end < 4) return undefined;
  // P(k) = the state k plies before the last one.
  const P = (k: number): HistoryState => states[n - k]!;
  // Cheap first: is this the position's `occurrences`-th time? Only then look at the cycle.
  let seen = 1;
  for (let i = 4; i <= end; i += 2) if (P(i).hash === P(0).hash && P(i).key === P(0).key) seen++;
  if (seen < occurrences) return undefined;
  const them = P(0).board[P(0).move!.to]!.color; // the side that just moved
  const us: Color = them === 'red' ? 'black' : 'red';

  let perpetualThem = P(0).check && P(2).check;
  let perpetualUs = P(1).check && P(3).check;
  let chaseThem = undoMoveSquares(chasedAt(states, n), P(1).move) & chasedAt(states, n - 2);
  let chaseUs = undoMoveSquares(chasedAt(states, n - 1), P(2).move) & chasedAt(states, n - 3);
  // The chase sets follow pieces back in time; for the verdict, bring them to the present board.
  const toPresent = (set: SquareSet, k: number): SquareSet => {
    let out = set;
    for (let j = k - 1; j >= 0; j--) {
      const m = P(j).move!;
      out = undoMoveSquares(out, { from: m.to, to: m.from });
    }
    return out;
  };
  let count = 0;
  for (let i = 4; i <= end; i += 2) {
    // The start position has no move, hence nothing chased: it does not clear the set.
    if (i !== n) chaseThem = undoMoveSquares(chaseThem, P(i - 1).move) & chasedAt(states, n - i);
    perpetualThem &&= P(i).check;
    if (P(i).hash === P(0).hash && P(i).key === P(0).key && ++count + 1 === occurrences) {
      const decide = (a: boolean, b: boolean): Color | undefined =>
        a && !b ? them : b && !a ? us : undefined;
      const facts = {
        cycle: i,
        chased: {
          [them]: [...squaresOf(toPresent(chaseThem, i === n ? i - 2 : i))],
          [us]: [...squaresOf(toPresent(chaseUs, i - 1))],
        } as Record<Color, Square[]>,
        perpetualCheck: { [them]: perpetualThem, [us]: perpetualUs } as Record<Color, boolean>,
      };
      if (perpetualThem || perpetualUs) {
        const loser = decide(perpetualThem, perpetualUs);
        return { loser, reason: loser ? 'perpetual_check' : 'repetition', ...facts };
      }
      if (chaseThem || chaseUs) {
        const loser = decide(chaseThem !== EMPTY_SET, chaseUs !== EMPTY_SET);
        return { loser, reason: loser ? 'perpetual_chase' : 'repetition', ...facts };
      }
      return { loser: undefined, reason: 'repetition', ...facts };
    }
    if (i + 1 <= end) {
      perpetualUs &&= P(i + 1).check;
      chaseUs = undoMoveSquares(chaseUs, P(i).move) & chasedAt(states, n - i - 1);
    }
  }
  return undefined;
}
