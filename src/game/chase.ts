/**
 * Chase detection for the Asian (AXF) repetition rules: which enemy pieces a move newly
 * "chases" — threatens to win — after the exemptions of the rules.
 *
 * The semantics follow Fairy-Stockfish's `Position::chased()` (the reference whose test cases are
 * `../shared/data/repetition.json`), re-expressed on a plain 90-square board:
 * - kings and soldiers may chase freely: they are never chasers of direct or discovered attacks;
 * - the king is never a target, and a soldier only once it has crossed the river;
 * - a horse or cannon attacking a chariot, and an advisor or elephant attacking a chariot, horse
 *   or cannon, chase even a protected piece (the target is worth more than the attacker);
 * - an attack on a piece of the attacker's own kind that can hit back is an offer to exchange,
 *   not a chase (unless the target is pinned and so cannot hit back);
 * - any other attack chases only an unprotected piece, where a "protector" that is pinned to its
 *   general, or a general that would face the enemy general by recapturing, does not count;
 * - a move that pins a protector ("undermining the root") chases the piece it protected, and a
 *   move that prepares a discovered check chases what the discovering piece attacks, unless the
 *   general itself can safely take it.
 * Only new attacks count; repetition.ts intersects these sets over a cycle.
 *
 * Where this deliberately differs from Fairy-Stockfish (never on the 32 reference cases, nor on
 * the ~800 variations of them the tests compare): a general protects or recaptures only inside its
 * palace, an elephant never across the river, and facing generals pin a piece only when it is the
 * one piece between the two generals.
 *
 * Pure and allocation-light but not tuned: it runs only when a position repeats.
 */
import {
  squareAt as at,
  attackersTo,
  attacksFrom,
  type Board,
  between as betweenSquares,
  squareBit as bit,
  type Color,
  countSquares,
  crossedRiver,
  EMPTY_SET,
  squareFile as fileOf,
  generalOf,
  hasSquare,
  type Move,
  type Role,
  squareRank as rankOf,
  type Square,
  type SquareSet,
  squareSetOf,
  squaresOf,
} from '../rules/index.js';

const ORTHO: readonly [number, number][] = [
  [0, 1],
  [0, -1],
  [1, 0],
  [-1, 0],
];
const DIAG: readonly [number, number][] = [
  [1, 1],
  [1, -1],
  [-1, 1],
  [-1, -1],
];

const piecesOf = (board: Board, color: Color, roles?: readonly Role[]): SquareSet => {
  let set = EMPTY_SET;
  for (let s = 0; s < 90; s++) {
    const p = board[s];
    if (p && p.color === color && (!roles || roles.includes(p.role))) set |= bit(s);
  }
  return set;
};

const without = (board: Board, ...squares: Square[]): Board => {
  const copy = board.slice();
  for (const s of squares) copy[s] = undefined;
  return copy;
};

/** Squares strictly between two squares on one file or rank (empty set otherwise). */
const between = (a: Square, b: Square): SquareSet => squareSetOf(betweenSquares(a, b));

/** The whole file or rank through `a` and `b` (empty when they share neither). */
function lineThrough(a: Square, b: Square): SquareSet {
  let set = EMPTY_SET;
  if (fileOf(a) === fileOf(b)) for (let r = 0; r < 10; r++) set |= bit(r * 9 + fileOf(a));
  else if (rankOf(a) === rankOf(b)) for (let f = 0; f < 9; f++) set |= bit(rankOf(a) * 9 + f);
  return set;
}

/** Every square on the file and rank of `sq`, except `sq`. */
function crossOf(sq: Square): SquareSet {
  let set = EMPTY_SET;
  for (let r = 0; r < 10; r++) set |= bit(r * 9 + fileOf(sq));
  for (let f = 0; f < 9; f++) set |= bit(rankOf(sq) * 9 + f);
  return set & ~bit(sq);
}

function neighbours(sq: Square, steps: readonly [number, number][]): SquareSet {
  let set = EMPTY_SET;
  for (const [df, dr] of steps) {
    const t = at(fileOf(sq) + df, rankOf(sq) + dr);
    if (t !== undefined) set |= bit(t);
  }
  return set;
}

/**
 * Pieces of either colour standing between the general of `kingColor` and an enemy chariot,
 * cannon or horse so that removing that one piece would expose the general: pinned defenders,
 * and attackers' pieces that can give a discovered check.
 */
export function kingBlockers(board: Board, kingColor: Color): SquareSet {
  const k = generalOf(board, kingColor);
  if (k === undefined) return EMPTY_SET;
  const enemy: Color = kingColor === 'red' ? 'black' : 'red';
  let blockers = EMPTY_SET;
  for (let s = 0; s < 90; s++) {
    const p = board[s];
    if (!p || p.color !== enemy) continue;
    if (p.role === 'chariot' || p.role === 'cannon') {
      if (fileOf(s) !== fileOf(k) && rankOf(s) !== rankOf(k)) continue;
      const b = between(s, k);
      let occupied = EMPTY_SET;
      for (const t of squaresOf(b)) if (board[t]) occupied |= bit(t);
      const n = countSquares(occupied);
      if (p.role === 'chariot' ? n === 1 : n === 2) blockers |= occupied;
    } else if (p.role === 'horse') {
      // A horse a knight's jump away whose leg is occupied: the leg piece blocks the check.
      const df = fileOf(k) - fileOf(s);
      const dr = rankOf(k) - rankOf(s);
      const jump = (Math.abs(df) === 1 && Math.abs(dr) === 2) || (Math.abs(df) === 2 && Math.abs(dr) === 1);
      if (!jump) continue;
      const leg =
        Math.abs(dr) === 2
          ? at(fileOf(s), rankOf(s) + Math.sign(dr))
          : at(fileOf(s) + Math.sign(df), rankOf(s));
      if (leg !== undefined && board[leg]) blockers |= bit(leg);
    }
  }
  return blockers;
}

/** Why a piece counts as chased. */
export type ChaseKind =
  /** A horse or cannon on a chariot, an advisor or elephant on a chariot, horse or cannon. */
  | 'stronger_target'
  /** Nothing protects it. */
  | 'unprotected'
  /** Its only protectors are pinned to their general. */
  | 'pinned_protector'
  /** Its only protector is the general, which would face the enemy general by recapturing. */
  | 'false_protection'
  /** The move pinned the piece that protected it. */
  | 'undermined_root'
  /** The move set up a discovered check, and the discovering piece attacks it. */
  | 'discovered_check_threat';

/** Told each newly chased square, why, and the square of the attacker. */
export type ChaseExplainer = (target: Square, why: ChaseKind, attacker: Square) => void;

/** Maps a set of squares back through `move` (a piece now on `to` was on `from`). */
export function undoMoveSquares(set: SquareSet, move: Move | undefined): SquareSet {
  if (!move || !hasSquare(set, move.to)) return set;
  return (set & ~bit(move.to)) | bit(move.from);
}

/**
 * The enemy pieces (as squares on `after`) that the move `before` → `after` newly chases.
 * `after[move.to]` is the moved piece; the victim is the side to move on `after`.
 */
export function chasedBy(before: Board, after: Board, move: Move, explain?: ChaseExplainer): SquareSet {
  const mover = after[move.to]?.color;
  if (!mover) return EMPTY_SET;
  const victim: Color = mover === 'red' ? 'black' : 'red';
  const victimKing = generalOf(after, victim);
  const moverKing = generalOf(after, mover);
  let chased = EMPTY_SET;

  let pins = kingBlockers(after, victim);
  // Facing generals pin the only victim piece between the two generals.
  if (victimKing !== undefined && moverKing !== undefined && fileOf(victimKing) === fileOf(moverKing)) {
    const inBetween = [...squaresOf(between(victimKing, moverKing))].filter((s) => after[s]);
    const only = inBetween[0];
    if (inBetween.length === 1 && only !== undefined && after[only]?.color === victim) pins |= bit(only);
  }
  const victimPieces = piecesOf(after, victim);
  const notTargets = piecesOf(after, victim, ['king']) | uncrossedPawns(after, victim);

  const mark = (set: SquareSet, why: ChaseKind, by: Square): void => {
    if (explain) for (const s of squaresOf(set & ~chased)) explain(s, why, by);
    chased |= set;
  };
  const addChased = (attackerSq: Square, attacker: Role, attacked: SquareSet): void => {
    let attacks = attacked;
    if (!(attacks & ~chased)) return;
    attacks &= ~notTargets;
    // Attacks on a more valuable piece chase even when it is protected.
    if (attacker === 'horse' || attacker === 'cannon')
      mark(attacks & piecesOf(after, victim, ['chariot']), 'stronger_target', attackerSq);
    if (attacker === 'elephant' || attacker === 'advisor')
      mark(attacks & piecesOf(after, victim, ['chariot', 'cannon', 'horse']), 'stronger_target', attackerSq);
    // A like piece that can hit back makes it an offer to exchange, not a chase.
    if (attacker === 'horse' && neighbours(attackerSq, DIAG) & occupancy(after)) {
      for (const s of squaresOf(attacks & piecesOf(after, victim, ['horse']))) {
        if (hasSquare(attacksFrom(after, s, { color: victim, role: 'horse' }), attackerSq))
          attacks &= ~bit(s);
      }
    } else {
      attacks &= ~piecesOf(after, victim, [attacker]) | pins;
    }
    // Otherwise only an unprotected piece is chased.
    const vacated = without(after, attackerSq);
    for (const s of squaresOf(attacks)) {
      const roots = attackersTo(vacated, s, victim) & ~pins;
      const onlyKing = victimKing !== undefined && roots === bit(victimKing);
      if (!roots || (onlyKing && moverKing !== undefined && facesAfterRecapture(vacated, moverKing, s))) {
        mark(
          bit(s),
          roots ? 'false_protection' : attackersTo(vacated, s, victim) ? 'pinned_protector' : 'unprotected',
          attackerSq,
        );
      }
    }
  };

  // Direct attacks of the moved piece (only new ones for chariots and cannons).
  const moved = after[move.to]!;
  if (moved.role !== 'king' && moved.role !== 'pawn') {
    let direct = attacksFrom(after, move.to, moved) & victimPieces;
    if (moved.role === 'chariot' || moved.role === 'cannon') direct &= ~lineThrough(move.from, move.to);
    addChased(move.to, moved.role, direct);
  }

  // Discovered attacks: pieces whose leg, eye, line or screen the move changed.
  const captured = before[move.to] !== undefined;
  const candidates =
    (neighbours(move.from, ORTHO) & piecesOf(after, mover, ['horse'])) |
    (neighbours(move.from, DIAG) & piecesOf(after, mover, ['elephant'])) |
    (crossOf(move.from) & piecesOf(after, mover, ['cannon', 'chariot'])) |
    (crossOf(move.to) & piecesOf(after, mover, ['cannon']));
  const previous = after.slice();
  previous[move.from] = moved;
  if (!captured) previous[move.to] = undefined;
  for (const s of squaresOf(candidates)) {
    const piece = after[s]!;
    // Attacks measured with the piece itself on `s` in both boards: only occupancy differs.
    const prevBoard = previous.slice();
    prevBoard[s] = piece;
    const discoveries = victimPieces & attacksFrom(after, s, piece) & ~attacksFrom(prevBoard, s, piece);
    addChased(s, piece.role, discoveries);
  }

  // Pins and discovered checks the move created.
  const newBlockers = kingBlockers(after, victim) & ~kingBlockers(before, victim);
  // Undermining a root: a newly pinned piece no longer protects what it did.
  for (const s of squaresOf(newBlockers & victimPieces)) {
    const pinned = after[s]!;
    const unrooted = victimPieces & ~notTargets & attacksFrom(after, s, pinned);
    const moverPins = kingBlockers(after, mover);
    for (const s2 of squaresOf(unrooted)) {
      const attackers = attackersTo(after, s2, mover) & ~moverPins;
      if (attackers) mark(bit(s2), 'undermined_root', [...squaresOf(attackers)][0]!);
    }
  }
  // A discovered check in waiting: what the discovering piece attacks is threatened, unless the
  // general can take it safely.
  if (victimKing !== undefined) {
    const kingReach = attacksFrom(after, victimKing, { color: victim, role: 'king' });
    for (const s of squaresOf(newBlockers & piecesOf(after, mover))) {
      const discoverer = after[s]!;
      const attacks = attacksFrom(after, s, discoverer) & victimPieces;
      mark(attacks & ~kingReach, 'discovered_check_threat', s);
      const board = without(after, s, victimKing);
      for (const s2 of squaresOf(attacks & kingReach)) {
        if (attackersTo(board, s2, mover) & ~bit(s)) mark(bit(s2), 'discovered_check_threat', s);
      }
    }
  }
  return chased;
}

function occupancy(board: Board): SquareSet {
  let set = EMPTY_SET;
  for (let s = 0; s < 90; s++) if (board[s]) set |= bit(s);
  return set;
}

function uncrossedPawns(board: Board, color: Color): SquareSet {
  let set = EMPTY_SET;
  for (let s = 0; s < 90; s++) {
    const p = board[s];
    if (p && p.color === color && p.role === 'pawn' && !crossedRiver(color, s)) set |= bit(s);
  }
  return set;
}

/** Would a general recapturing on `s` face the enemy general on `enemyKing` (open file)? */
function facesAfterRecapture(board: Board, enemyKing: Square, s: Square): boolean {
  if (fileOf(s) !== fileOf(enemyKing)) return false;
  for (const t of squaresOf(between(s, enemyKing))) if (board[t]) return false;
  return true;
}
