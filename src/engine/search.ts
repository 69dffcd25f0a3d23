/**
 * The engine: iterative deepening negamax alpha-beta with principal variation search, quiescence
 * on captures (MVV-LVA), a transposition table, killer moves and the history heuristic, check
 * extension and mate scores, within a depth, node and time budget. Pure: the caller's position is
 * cloned, the only outside input is the clock (injectable) for a deadline.
 *
 * Xiangqi specifics: a side without a legal move has lost, checkmated or not (rule 3.2); a
 * position repeated within the search line counts as a draw (the full AXF repetition rules of
 * game/repetition.ts are for the game, too costly here).
 *
 * The hot loop allocates nothing: moves live in the position's per-ply buffers, their ordering
 * scores in a parallel buffer, the table in fixed typed arrays. Results are deterministic for the
 * same position and budget when the budget is depth or nodes (a deadline depends on the machine).
 */
import { FROM_MAILBOX, ROLE_OF } from '../rules/geometry.js';
import { MAX_PLY, type Position } from '../rules/position.js';
import type { Move } from '../rules/types.js';
import { ZOBRIST_SIDE_HI, ZOBRIST_SIDE_LO } from '../rules/zobrist.js';
import { evaluateRed, MATERIAL, moveDelta } from './eval.js';

export const MATE = 30000;
/** Scores beyond this are mates (in `MATE − |score|` plies). */
export const MATE_BOUND = MATE - MAX_PLY;

export interface SearchBudget {
  /** Deepest iteration (plies, before extensions). */
  readonly maxDepth: number;
  /** Nodes (positions visited, quiescence included) before the search stops. */
  readonly maxNodes?: number;
  /** `now()` value (ms) at which the search stops. */
  readonly deadline?: number;
  /** Clock for the deadline; `Date.now` by default. */
  readonly now?: () => number;
}

export interface SearchResult {
  /** Best move, undefined when the side to move has no legal move. */
  readonly move: Move | undefined;
  /** Centipawns from the side to move's view; ±(MATE − plies) for a forced mate. */
  readonly score: number;
  /** Depth of the last completed iteration. */
  readonly depth: number;
  readonly nodes: number;
  /** Principal variation of the last completed iteration, starting with `move`. */
  readonly pv: readonly Move[];
}

const MOVES_PER_PLY = 256;
const TT_BITS = 19;
const TT_SIZE = 1 << TT_BITS;
const TT_MASK = TT_SIZE - 1;
const EXACT = 1;
const LOWER = 2;
const UPPER = 3;
/** Winning by the opponent's perpetual check: above any material, below mates. */
const PERPETUAL_WIN = 20000;
const NO_REPETITION = 1 << 20;
/** Null-move depth reduction. */
const NULL_R = 2;
/** How often (nodes) the clock is read. */
const CLOCK_EVERY = 1023;

// Move ordering bands: TT move, captures (MVV-LVA), killers, then quiet moves by history.
const ORDER_TT = 1 << 30;
const ORDER_CAPTURE = 1 << 28;
const ORDER_KILLER1 = 1 << 27;
const ORDER_KILLER2 = ORDER_KILLER1 - 1;

/** Holds the engine's tables; one is reused by `searchBest` (single-threaded). */
export class Searcher {
  // Transposition table: verified by the hash's high half, indexed by the low half.
  private readonly ttKey = new Int32Array(TT_SIZE);
  private readonly ttMove = new Int32Array(TT_SIZE);
  private readonly ttScore = new Int16Array(TT_SIZE);
  private readonly ttDepth = new Int8Array(TT_SIZE);
  private readonly ttFlag = new Uint8Array(TT_SIZE);

  private readonly history = new Int32Array(1 << 16);
  private readonly killers = new Int32Array(MAX_PLY * 2);
  private readonly order = new Int32Array(MAX_PLY * MOVES_PER_PLY);
  /** Triangular PV table: row `ply` holds the line from that ply. */
  private readonly pvMoves = new Int32Array(MAX_PLY * MAX_PLY);
  private readonly pvLength = new Int32Array(MAX_PLY + 1);
  /** Hashes along the current line (root first) for repetition. */
  private readonly lineLo = new Int32Array(MAX_PLY + 1);
  private readonly lineHi = new Int32Array(MAX_PLY + 1);
  /** Whether the side to move was in check at each ply of the line. */
  private readonly lineCheck = new Uint8Array(MAX_PLY + 1);

  private pos!: Position;
  private buf!: Int32Array;
  private score = 0;
  private nodes = 0;
  private maxNodes = Number.POSITIVE_INFINITY;
  private deadline = Number.POSITIVE_INFINITY;
  private now: () => number = Date.now;
  private stopped = false;
  private canStop = false;

  search(position: Position, budget: SearchBudget): SearchResult {
    const pos = position.clone();
    this.pos = pos;
    this.buf = pos.moveBuffer;
    this.reset();
    this.maxNodes = budget.maxNodes ?? Number.POSITIVE_INFINITY;
    this.deadline = budget.deadline ?? Number.POSITIVE_INFINITY;
    this.now = budget.now ?? Date.now;
    this.score = evaluateRed(pos);

    let best: SearchResult = { move: undefined, score: -MATE, depth: 0, nodes: 0, pv: [] };
    const maxDepth = Math.max(1, Math.min(budget.maxDepth, MAX_PLY - 32));
    for (let depth = 1; depth <= maxDepth; depth++) {
      // The first iteration always completes, so there is always a move.
      this.canStop = depth > 1;
      if (this.canStop && (this.nodes >= this.maxNodes || this.now() >= this.deadline)) break;
      const score = this.negamax(depth, 0, -MATE, MATE, false);
      if (this.stopped) break;
      const pv: Move[] = [];
      for (let k = 0; k < this.pvLength[0]!; k++) pv.push(toMove(this.pvMoves[k]!));
      best = { move: pv[0], score, depth, nodes: this.nodes, pv };
      if (pv.length === 0) break; // no legal move
      if (Math.abs(score) >= MATE_BOUND && MATE - Math.abs(score) <= depth) break; // mate found within full width
    }
    return { ...best, nodes: this.nodes };
  }

  private reset(): void {
    this.ttKey.fill(0);
    this.ttMove.fill(0);
    this.ttDepth.fill(0);
    this.ttFlag.fill(0);
    this.history.fill(0);
    this.killers.fill(0);
    this.nodes = 0;
    this.stopped = false;
  }

  private outOfBudget(): boolean {
    if (!this.canStop) return false;
    if (this.nodes >= this.maxNodes || ((this.nodes & CLOCK_EVERY) === 0 && this.now() >= this.deadline)) {
      this.stopped = true;
    }
    return this.stopped;
  }

  /**
   * The score of a repetition on this line: the position already occurred with the same side to
   * move. A side that gave check with every move of the cycle while the other did not loses
   * (perpetual check, rule 4.1.7); otherwise a draw. `NO_REPETITION` when there is none.
   */
  private repetition(ply: number): number {
    const lo = this.pos.hashLo;
    const hi = this.pos.hashHi;
    for (let k = ply - 2; k >= 0; k -= 2) {
      if (this.lineLo[k] !== lo || this.lineHi[k] !== hi) continue;
      // The side that just moved gave check at plies k+2, k+4, …, ply; the side to move at k+1, …, ply−1.
      let theyChecked = true;
      let weChecked = true;
      for (let j = k + 2; j <= ply; j += 2) if (!this.lineCheck[j]) theyChecked = false;
      for (let j = k + 1; j < ply; j += 2) if (!this.lineCheck[j]) weChecked = false;
      if (theyChecked && !weChecked) return PERPETUAL_WIN;
      if (weChecked && !theyChecked) return -PERPETUAL_WIN;
      return 0;
    }
    return NO_REPETITION;
  }

  private negamax(depth: number, ply: number, alpha: number, beta: number, inCheckKnown: boolean): number {
    const pos = this.pos;
    this.pvLength[ply] = ply;
    this.lineLo[ply] = pos.hashLo;
    this.lineHi[ply] = pos.hashHi;
    const inCheck = inCheckKnown || pos.isCheck();
    this.lineCheck[ply] = inCheck ? 1 : 0;
    if (ply > 0) {
      const cycle = this.repetition(ply);
      if (cycle !== NO_REPETITION) return cycle;
    }

    if (depth <= 0 && !inCheck) return this.quiesce(ply, alpha, beta);
    this.nodes++;
    if (this.outOfBudget()) return 0;
    if (ply >= MAX_PLY - 1) return this.staticScore();

    // Mate-distance pruning: no line from here beats a mate already in hand.
    const matedHere = -MATE + ply;
    if (alpha < matedHere) alpha = matedHere;
    if (beta > -matedHere - 1) beta = -matedHere - 1;
    if (alpha >= beta) return alpha;

    // Transposition table.
    const slot = pos.hashLo & TT_MASK;
    let ttMove = 0;
    if (this.ttKey[slot] === pos.hashHi && this.ttFlag[slot] !== 0) {
      ttMove = this.ttMove[slot]!;
      if (ply > 0 && this.ttDepth[slot]! >= depth) {
        const s = fromTT(this.ttScore[slot]!, ply);
        const flag = this.ttFlag[slot];
        if (flag === EXACT || (flag === LOWER && s >= beta) || (flag === UPPER && s <= alpha)) return s;
      }
    }

    // Null move: if passing still fails high, a real move will too. Not in check, not in the
    // principal variation, and only with pieces left beside soldiers (zugzwang is for endings).
    const pvNode = beta - alpha > 1;
    if (!pvNode && !inCheck && depth >= 3 && this.hasPieces() && this.staticScore() >= beta) {
      pos.side ^= 1;
      pos.hashLo ^= ZOBRIST_SIDE_LO;
      pos.hashHi ^= ZOBRIST_SIDE_HI;
      const s = -this.negamax(depth - 1 - NULL_R, ply + 1, -beta, -beta + 1, false);
      pos.side ^= 1;
      pos.hashLo ^= ZOBRIST_SIDE_LO;
      pos.hashHi ^= ZOBRIST_SIDE_HI;
      if (this.stopped) return 0;
      if (s >= beta) return s >= MATE_BOUND ? beta : s;
    }

    const buf = this.buf;
    const start = ply * MOVES_PER_PLY;
    const n = pos.generateLegal(buf, start);
    if (n === 0) return matedHere; // checkmate or stalemate: both lose
    this.scoreMoves(start, n, ttMove, ply);

    const alphaIn = alpha;
    let bestScore = -MATE;
    let bestMove = 0;
    for (let k = 0; k < n; k++) {
      const m = this.pickNext(start + k, start + n);
      const captured = pos.board[(m >> 8) & 255]!;
      const delta = moveDelta(pos.board, m);
      this.score += delta;
      pos.make(m);
      const givesCheck = pos.isCheck();
      const next = depth - 1 + (givesCheck ? 1 : 0);
      let s: number;
      if (k === 0) {
        s = -this.negamax(next, ply + 1, -beta, -alpha, givesCheck);
      } else {
        // Late quiet moves are searched shallower first (late move reduction), then in full if
        // they beat alpha.
        let r = 0;
        if (
          depth >= 3 &&
          k >= 3 &&
          !captured &&
          !inCheck &&
          !givesCheck &&
          this.order[start + k]! < ORDER_KILLER2
        ) {
          r = k >= 8 && depth >= 5 ? 2 : 1;
        }
        s = -this.negamax(next - r, ply + 1, -alpha - 1, -alpha, givesCheck);
        if (r > 0 && s > alpha && !this.stopped) {
          s = -this.negamax(next, ply + 1, -alpha - 1, -alpha, givesCheck);
        }
        if (s > alpha && s < beta && !this.stopped) {
          s = -this.negamax(next, ply + 1, -beta, -alpha, givesCheck);
        }
      }
      pos.unmake();
      this.score -= delta;
      if (this.stopped) return 0;
      if (s > bestScore) {
        bestScore = s;
        bestMove = m;
        if (s > alpha) {
          alpha = s;
          this.updatePv(ply, m);
          if (s >= beta) {
            if (!captured) this.rememberQuiet(m, ply, depth);
            break;
          }
        }
      }
    }

    const flag = bestScore >= beta ? LOWER : bestScore > alphaIn ? EXACT : UPPER;
    this.ttKey[slot] = pos.hashHi;
    this.ttMove[slot] = bestMove;
    this.ttScore[slot] = toTT(bestScore, ply);
    this.ttDepth[slot] = Math.min(depth, 127);
    this.ttFlag[slot] = flag;
    return bestScore;
  }

  /** Captures only, standing pat on the static score; in check, every evasion (to see mates). */
  private quiesce(ply: number, alpha: number, beta: number): number {
    const pos = this.pos;
    this.pvLength[ply] = ply;
    this.nodes++;
    if (this.outOfBudget()) return 0;
    const inCheck = pos.isCheck();
    if (ply >= MAX_PLY - 1) return this.staticScore();

    let bestScore = -MATE + ply;
    if (!inCheck) {
      bestScore = this.staticScore();
      if (bestScore >= beta) return bestScore;
      if (bestScore > alpha) alpha = bestScore;
    }

    const buf = this.buf;
    const order = this.order;
    const board = pos.board;
    const start = ply * MOVES_PER_PLY;
    const n = pos.generateLegal(buf, start);
    if (n === 0) return -MATE + ply;
    // Keep captures (all moves in check), scored by MVV-LVA.
    let end = start;
    for (let k = start; k < start + n; k++) {
      const m = buf[k]!;
      const victim = board[(m >> 8) & 255]!;
      if (!victim && !inCheck) continue;
      buf[end] = m;
      order[end] = victim ? mvvLva(victim, board[m & 255]!) : 0;
      end++;
    }
    for (let k = start; k < end; k++) {
      const m = this.pickNext(k, end);
      const delta = moveDelta(board, m);
      this.score += delta;
      pos.make(m);
      const s = -this.quiesce(ply + 1, -beta, -alpha);
      pos.unmake();
      this.score -= delta;
      if (this.stopped) return 0;
      if (s > bestScore) {
        bestScore = s;
        if (s > alpha) {
          alpha = s;
          if (s >= beta) break;
        }
      }
    }
    return bestScore;
  }

  /** Does the side to move have a chariot, horse or cannon? */
  private hasPieces(): boolean {
    const squares = this.pos.squares;
    const base = 16 << this.pos.side;
    for (let slot = 5; slot <= 10; slot++) if (squares[base + slot]) return true;
    return false;
  }

  private staticScore(): number {
    return this.pos.side === 0 ? this.score : -this.score;
  }

  private scoreMoves(start: number, n: number, ttMove: number, ply: number): void {
    const buf = this.buf;
    const order = this.order;
    const board = this.pos.board;
    const k1 = this.killers[ply * 2]!;
    const k2 = this.killers[ply * 2 + 1]!;
    for (let k = start; k < start + n; k++) {
      const m = buf[k]!;
      const victim = board[(m >> 8) & 255]!;
      if (m === ttMove) order[k] = ORDER_TT;
      else if (victim) order[k] = ORDER_CAPTURE + mvvLva(victim, board[m & 255]!);
      else if (m === k1) order[k] = ORDER_KILLER1;
      else if (m === k2) order[k] = ORDER_KILLER2;
      else order[k] = Math.min(this.history[m]!, ORDER_KILLER2 - 1);
    }
  }

  /** Selection step: swaps the best-ordered move of [k, end) into k and returns it. */
  private pickNext(k: number, end: number): number {
    const buf = this.buf;
    const order = this.order;
    let best = k;
    let bestOrder = order[k]!;
    for (let j = k + 1; j < end; j++) {
      if (order[j]! > bestOrder) {
        best = j;
        bestOrder = order[j]!;
      }
    }
    if (best !== k) {
      const m = buf[best]!;
      buf[best] = buf[k]!;
      buf[k] = m;
      order[best] = order[k]!;
      order[k] = bestOrder;
    }
    return buf[k]!;
  }

  private rememberQuiet(m: number, ply: number, depth: number): void {
    const k = ply * 2;
    if (this.killers[k] !== m) {
      this.killers[k + 1] = this.killers[k]!;
      this.killers[k] = m;
    }
    const h = this.history[m]! + depth * depth;
    this.history[m] = h;
    if (h > 1 << 24) for (let j = 0; j < this.history.length; j++) this.history[j] = this.history[j]! >> 1;
  }

  private updatePv(ply: number, m: number): void {
    const row = ply * MAX_PLY;
    const child = (ply + 1) * MAX_PLY;
    this.pvMoves[row + ply] = m;
    const len = ply + 1 < MAX_PLY ? this.pvLength[ply + 1]! : ply + 1;
    for (let k = ply + 1; k < len; k++) this.pvMoves[row + k] = this.pvMoves[child + k]!;
    this.pvLength[ply] = Math.max(len, ply + 1);
  }
}

/** Most valuable victim first, then least valuable attacker (the general counts as least). */
function mvvLva(victim: number, attacker: number): number {
  const v = MATERIAL[ROLE_OF[victim]!]!;
  const roleA = ROLE_OF[attacker]!;
  return v * 16 - (roleA === 1 ? 0 : MATERIAL[roleA]! >> 6);
}

// Mate scores are stored relative to the node, read back relative to the root.
function toTT(score: number, ply: number): number {
  if (score >= MATE_BOUND) return score + ply;
  if (score <= -MATE_BOUND) return score - ply;
  return score;
}
function fromTT(score: number, ply: number): number {
  if (score >= MATE_BOUND) return score - ply;
  if (score <= -MATE_BOUND) return score + ply;
  return score;
}

const toMove = (m: number): Move => ({ from: FROM_MAILBOX[m & 255]!, to: FROM_MAILBOX[(m >> 8) & 255]! });

let shared: Searcher | undefined;

/** Best move within the budget, searched on a clone of `pos`. */
export function searchBest(pos: Position, budget: SearchBudget): SearchResult {
  shared ??= new Searcher();
  return shared.search(pos, budget);
}

/** Plies to mate of a mate score (positive: the side to move mates), undefined otherwise. */
export function mateIn(score: number): number | undefined {
  if (Math.abs(score) < MATE_BOUND) return undefined;
  return score > 0 ? MATE - score : -(MATE + score);
}
