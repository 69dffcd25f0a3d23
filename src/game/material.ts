/**
 * Rule 4.2.1: "the position is simple and neither side can possibly win".
 *
 * Only positions that are provably dead end the game here; positions that are merely known
 * theoretical draws (say chariot against two advisors and two elephants) are left to the players
 * and the arbiter. The one dead case the board can prove on its own:
 *
 * - Neither side has a chariot, horse, cannon or soldier. Generals, advisors and elephants never
 *   leave their own half of the board (advisors and generals stay in the palace, elephants never
 *   cross the river), so no piece can ever attack the enemy general: no check, hence no mate.
 *   (A stalemate would need the stalemated side's own cooperation; the rule, and this issue, call
 *   the game drawn as soon as the attacking material is gone.)
 *
 * Other candidates considered and rejected as not provable without search: soldiers that reached
 * the last rank (they still move sideways and can check a general on its back rank), and a lone
 * soldier against advisors (wins or draws depend on the position).
 */
import type { Board } from '../rules/index.js';

const ATTACKERS = new Set(['chariot', 'horse', 'cannon', 'pawn']);

/** True when no piece on either side can ever attack the enemy general. */
export function isInsufficientMaterial(board: Board): boolean {
  for (const piece of board) if (piece && ATTACKERS.has(piece.role)) return false;
  return true;
}
