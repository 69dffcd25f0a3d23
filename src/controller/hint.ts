/**
 * A hint for the side to move: the engine's best move (src/engine) within a small budget, so a
 * hint answers at once on the board. The node budget makes a hint the same for the same position
 * on any machine; the deadline only guards slow machines.
 */
import { type SearchBudget, searchBest } from '../engine/search.js';
import { type Move, makeIccs, type Position } from '../rules/index.js';

export const HINT_BUDGET = { maxDepth: 8, maxNodes: 300_000, deadlineMs: 300 } as const;

export interface Hint {
  readonly move: Move;
  readonly iccs: string;
  /** Centipawns from the side to move's view; ±(30000 − plies) for a forced mate. */
  readonly score: number;
  /** Depth of the search that chose it. */
  readonly depth: number;
}

/** The hint, or undefined when the side to move has no legal move. `position` is not touched. */
export function suggestMove(position: Position, budget?: SearchBudget): Hint | undefined {
  const result = searchBest(
    position,
    budget ?? {
      maxDepth: HINT_BUDGET.maxDepth,
      maxNodes: HINT_BUDGET.maxNodes,
      deadline: Date.now() + HINT_BUDGET.deadlineMs,
    },
  );
  if (!result.move) return undefined;
  return { move: result.move, iccs: makeIccs(result.move), score: result.score, depth: result.depth };
}
