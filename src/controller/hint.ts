/**
 * A hint for the side to move, kept simple on purpose (there is no engine module in the project):
 * a two-ply material search — every legal move, answered by the opponent's best reply — with mate
 * and stalemate (a loss in xiangqi) seen at once. Ties go to the move that keeps the most of one's
 * own options, then to ICCS order, so a hint is deterministic.
 */
import { makeIccs } from '../rules/iccs.js';
import type { Position } from '../rules/position.js';
import type { Color, Move, Role } from '../rules/types.js';

const VALUE: Record<Role, number> = {
  king: 0,
  advisor: 2,
  elephant: 2,
  horse: 4,
  cannon: 4.5,
  chariot: 9,
  pawn: 1,
};

const WIN = 1000;

/** Material of `color` minus the opponent's, in pawns. */
export function materialBalance(pos: Position, color: Color): number {
  let score = 0;
  for (let sq = 0; sq < 90; sq++) {
    const p = pos.pieceAt(sq);
    if (p) score += p.color === color ? VALUE[p.role] : -VALUE[p.role];
  }
  return score;
}

export interface Hint {
  readonly move: Move;
  readonly iccs: string;
  /** Material for the side to move after the opponent's best reply (±1000: mate). */
  readonly score: number;
}

/** The hint, or undefined when the side to move has no legal move. */
export function suggestMove(position: Position): Hint | undefined {
  const pos = position.clone();
  const me = pos.turn;
  let best: (Hint & { mobility: number }) | undefined;
  const moves = pos.legalMoves().sort((a, b) => makeIccs(a).localeCompare(makeIccs(b)));
  for (const move of moves) {
    pos.play(move);
    const replies = pos.legalMoves();
    let score: number;
    if (replies.length === 0) score = WIN;
    else {
      score = Number.POSITIVE_INFINITY;
      for (const reply of replies) {
        pos.play(reply);
        const s = pos.hasLegalMove() ? materialBalance(pos, me) : -WIN;
        pos.undo();
        if (s < score) score = s;
      }
    }
    pos.undo();
    const mobility = replies.length === 0 ? 0 : -replies.length;
    if (!best || score > best.score || (score === best.score && mobility > best.mobility)) {
      best = { move, iccs: makeIccs(move), score, mobility };
    }
  }
  return best ? { move: best.move, iccs: best.iccs, score: best.score } : undefined;
}
