/**
 * What happens when a move against the rules (4.1.2 generals facing, 4.1.6 a move against the
 * rules of movement) is made on the board. The move reader never records such a move; it reports
 * it to the game, which applies the policy:
 * - casual: an alert only, play goes on;
 * - tournament: a completed illegal move that is not corrected within `correctionMs` is a foul,
 *   and the `foulsToLose`-th foul (3 by rule 4.1.8) loses; with `completedIllegalLoses` a
 *   completed illegal move loses at once (the strict reading of 4.1.2 and 4.1.6).
 */
export type IllegalMovePolicy =
  | { readonly kind: 'casual' }
  | {
      readonly kind: 'tournament';
      readonly correctionMs: number;
      readonly foulsToLose: number;
      readonly completedIllegalLoses?: boolean;
    };

export type TournamentPolicy = Extract<IllegalMovePolicy, { kind: 'tournament' }>;

export const CASUAL: IllegalMovePolicy = { kind: 'casual' };

/** Tournament defaults: 10 s to put it right, the third foul loses (4.1.8). */
export const TOURNAMENT: TournamentPolicy = { kind: 'tournament', correctionMs: 10_000, foulsToLose: 3 };
