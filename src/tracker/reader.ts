/**
 * The move reader's judgement, pure: given the confirmed position, what the sensors show now and
 * what was lifted since, which continuations of the game explain the board?
 *
 * It never guesses. A board that one legal move explains is that move (committed by the machine
 * once the board has held still); a capture seen only as "the capturer's square emptied" with
 * occupancy sensing (the pieces swapped within one scan) stays pending, with its candidates, until
 * later evidence — a clock button or the opponent's reply — leaves a single line.
 */
import { TO_MAILBOX } from '../rules/geometry.js';
import type { Position } from '../rules/position.js';
import type { Color, Move, Square } from '../rules/types.js';
import type { Cells, Sensing } from '../sensors/snapshot.js';

/** The cells a position shows to sensors of one kind. */
export function expectedCells(pos: Position, sensing: Sensing): Cells {
  let s = '';
  for (let sq = 0; sq < 90; sq++) {
    const id = pos.board[TO_MAILBOX[sq]!]!;
    s += id === 0 ? '.' : sensing === 'occupancy' ? 'x' : id & 16 ? 'r' : 'b';
  }
  return s;
}

export interface Line {
  readonly moves: readonly Move[];
  /** The last move is an occupancy capture whose target never read empty: only later evidence confirms it. */
  readonly weak: boolean;
}

export interface Displacement {
  readonly from: Square;
  readonly to: Square;
  /** The side whose position the displacement was judged against (the side to move there). */
  readonly turn: Color;
  /** The moves already in the line before it. */
  readonly after: readonly Move[];
}

export type Verdict =
  /** The board equals the confirmed position. */
  | { kind: 'idle' }
  /** Pieces are off the board (in a hand): the position before them is still possible. */
  | { kind: 'transit'; lifted: Square[]; keep: Line[] }
  /** One continuation explains the board; `extendable`: the piece could still slide further. */
  | { kind: 'move'; line: Line; extendable: boolean }
  /** Several continuations explain it, or a swap capture awaits evidence (`keep`: every line still possible). */
  | { kind: 'pending'; lines: Line[]; keep: Line[] }
  /** A piece stands where it may not legally go. */
  | { kind: 'illegal'; displacement: Displacement; keep: Line[] }
  /** The board is the position before the last move: a takeback. */
  | { kind: 'takeback' }
  /** Nothing explains the board. */
  | { kind: 'unknown'; keep: Line[] };

export interface Evidence {
  /**
   * Squares that read empty longer than a bounce since the confirmed position, with the time that
   * lift began (the latest, if several).
   */
  readonly lifted: ReadonlyMap<Square, number>;
  /** The side that pressed its clock button since the confirmed position, if any. */
  readonly buttonBy?: Color | undefined;
}

interface Root {
  readonly moves: Move[];
  readonly pos: Position;
}

const MAX_LINES = 32;

/**
 * Judges `observed` against `base` (the confirmed position), the pending lines kept from earlier
 * boards and, for takebacks, `previous`: the position before the last confirmed move, and that move.
 */
export function judge(
  base: Position,
  observed: Cells,
  sensing: Sensing,
  pending: readonly Line[],
  evidence: Evidence,
  previous?: { readonly position: Position; readonly move: Move },
): Verdict {
  const roots: Root[] = [{ moves: [], pos: base }];
  for (const line of pending.slice(0, MAX_LINES)) {
    const pos = base.clone();
    for (const m of line.moves) pos.play(m);
    roots.push({ moves: [...line.moves], pos });
  }

  const fresh: Line[] = [];
  const awaiting: Line[] = [];
  const transit: Root[] = [];
  /** Pieces in the hand that the side to move there would not be holding. */
  const oddTransit: Root[] = [];
  /** Roots the board still fits: exactly, with pieces in the hand, or with one piece misplaced. */
  const fitting: Root[] = [];
  let illegal: Displacement | undefined;

  for (const root of roots) {
    const expected = expectedCells(root.pos, sensing);
    const diff: Square[] = [];
    for (let sq = 0; sq < 90; sq++) if (observed.charCodeAt(sq) !== expected.charCodeAt(sq)) diff.push(sq);
    if (diff.length === 0) {
      if (root.moves.length === 0) return { kind: 'idle' };
      // A pending line's position stands on the board exactly: it still awaits evidence.
      awaiting.push({ moves: root.moves, weak: true });
      continue;
    }
    if (diff.every((sq) => observed[sq] === '.')) {
      (plausibleHands(root.pos, diff) ? transit : oddTransit).push(root);
      fitting.push(root);
    }
    if (diff.length > 2) continue;
    for (const d of explainDiff(root.pos, expected, observed, diff, sensing)) {
      const move = { from: d.from, to: d.to };
      if (!root.pos.isLegal(move)) {
        illegal ??= { from: d.from, to: d.to, turn: root.pos.turn, after: root.moves };
        fitting.push(root);
        continue;
      }
      // A hidden capture is seen when its target was lifted after the line's previous move began.
      const last = root.moves[root.moves.length - 1];
      const since = last
        ? (evidence.lifted.get(last.from) ?? Number.NEGATIVE_INFINITY)
        : Number.NEGATIVE_INFINITY;
      const seen = (evidence.lifted.get(d.to) ?? Number.NEGATIVE_INFINITY) > since;
      fresh.push({ moves: [...root.moves, move], weak: d.hiddenCapture && !seen });
    }
  }

  const done = dedupe(fresh.filter((l) => !l.weak));
  // A move that changed what the sensors see, or a capture whose target was seen lifted and
  // refilled, beats pieces merely held in the hand and captures nobody saw.
  if (done.length === 1) {
    const line = done[0]!;
    return { kind: 'move', line, extendable: isExtendable(base, line.moves) };
  }
  const candidates = dedupe([...done, ...fresh.filter((l) => l.weak), ...awaiting]);
  // The mover's clock button says its move is complete: the position before it is gone.
  if (done.length === 0 && evidence.buttonBy === base.turn && candidates.length === 1) {
    return { kind: 'move', line: { moves: candidates[0]!.moves, weak: false }, extendable: false };
  }
  // Lines are dropped only when a move is committed or the board is back where it was: a board
  // that does not fit a line now (a piece in the hand, a misplaced piece) may fit it again later.
  // A line the board no longer fits is dropped (its hidden capture was refuted: the piece is back);
  // a board that fits nothing at all (a hand sweeping over the board) drops nothing.
  const fits = fitting.filter((r) => r.moves.length > 0).map((r) => ({ moves: r.moves, weak: true }));
  const keep = dedupe([...candidates, ...fits]).slice(0, MAX_LINES);
  if (candidates.length > 0) return { kind: 'pending', lines: candidates.slice(0, MAX_LINES), keep };
  const before = previous && expectedCells(previous.position, sensing);
  if (before === observed) return { kind: 'takeback' };
  const liftedNow = (): Square[] => {
    const expected = expectedCells(base, sensing);
    const out: Square[] = [];
    for (let sq = 0; sq < 90; sq++) if (expected[sq] !== '.' && observed[sq] === '.') out.push(sq);
    return out;
  };
  if (transit.length > 0) return { kind: 'transit', lifted: liftedNow(), keep };
  // A takeback under way: the piece that moved is home again, its target empty, and pieces are
  // still in the hand (the captured one not yet back). Not an illegal move of the wrong side.
  if (
    previous &&
    before !== undefined &&
    observed[previous.move.to] === '.' &&
    observed[previous.move.from] === before[previous.move.from] &&
    onlyRemovals(before, observed)
  ) {
    return { kind: 'transit', lifted: liftedNow(), keep };
  }
  if (illegal) return { kind: 'illegal', displacement: illegal, keep };
  if (oddTransit.length > 0) return { kind: 'transit', lifted: liftedNow(), keep };
  return { kind: 'unknown', keep: [...pending] };
}

/** Does `observed` differ from `expected` only by pieces missing? */
function onlyRemovals(expected: Cells, observed: Cells): boolean {
  for (let sq = 0; sq < 90; sq++) {
    if (observed.charCodeAt(sq) !== expected.charCodeAt(sq) && observed[sq] !== '.') return false;
  }
  return true;
}

/**
 * Could the side to move be holding the pieces missing from `lifted`? Its own pieces, and enemy
 * pieces it can capture (a captured piece may be lifted first), two at most.
 */
function plausibleHands(pos: Position, lifted: Square[]): boolean {
  if (lifted.length > 2) return false;
  let targets: Set<Square> | undefined;
  for (const sq of lifted) {
    const piece = pos.pieceAt(sq);
    if (!piece || piece.color === pos.turn) continue;
    targets ??= new Set(pos.legalMoves().map((m) => m.to));
    if (!targets.has(sq)) return false;
  }
  return true;
}

interface DiffMove {
  from: Square;
  to: Square;
  /** Occupancy capture: the target's reading never changed. */
  hiddenCapture: boolean;
}

/** Which single displacements of a piece of the side to move (or, for alerts, of either side) explain `diff`? */
function explainDiff(
  pos: Position,
  expected: Cells,
  observed: Cells,
  diff: Square[],
  sensing: Sensing,
): DiffMove[] {
  const out: DiffMove[] = [];
  if (diff.length === 1) {
    // Occupancy: the capturer's square emptied and the target kept reading occupied.
    const from = diff[0]!;
    if (sensing !== 'occupancy' || observed[from] !== '.') return out;
    const mover = pos.pieceAt(from);
    if (!mover || mover.color !== pos.turn) return out;
    for (const to of pos.legalDestinations(from)) {
      if (pos.pieceAt(to)) out.push({ from, to, hiddenCapture: true });
    }
    return out;
  }
  const [a, b] = diff as [Square, Square];
  for (const [from, to] of [
    [a, b],
    [b, a],
  ] as const) {
    if (observed[from] !== '.' || expected[from] === '.') continue;
    const piece = expected[from];
    const landed = observed[to];
    if (landed === '.') continue;
    if (sensing === 'occupancy') {
      if (expected[to] === '.') out.push({ from, to, hiddenCapture: false });
    } else if (landed === piece && expected[to] !== piece) {
      out.push({ from, to, hiddenCapture: false });
    }
  }
  return out;
}

function dedupe(lines: Line[]): Line[] {
  const seen = new Set<string>();
  const out: Line[] = [];
  for (const l of lines) {
    const key = l.moves.map((m) => `${m.from}-${m.to}`).join(',');
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(l);
  }
  return out;
}

/**
 * Could the last piece moved still be travelling? Only a chariot or cannon that did not capture,
 * with a legal continuation further along the same line (a slide passes over its path).
 */
export function isExtendable(base: Position, moves: readonly Move[]): boolean {
  if (moves.length === 0) return false;
  let pos = base;
  if (moves.length > 1) {
    pos = base.clone();
    for (let k = 0; k < moves.length - 1; k++) pos.play(moves[k]!);
  }
  const last = moves[moves.length - 1]!;
  const piece = pos.pieceAt(last.from);
  if (!piece || (piece.role !== 'chariot' && piece.role !== 'cannon') || pos.pieceAt(last.to)) return false;
  const f = TO_MAILBOX[last.from]!;
  const t = TO_MAILBOX[last.to]!;
  const step = Math.sign(t - f) * (Math.abs(t - f) < 16 ? 1 : 16);
  // Any legal stop further along the line: the slide may pass over squares it may not stop on.
  for (const m of pos.legalCodes()) {
    if ((m & 255) !== f) continue;
    const to = (m >> 8) & 255;
    if (Math.sign(to - t) === Math.sign(step) && (to - t) % step === 0 && sameLine(t, to, step)) return true;
  }
  return false;
}

const sameLine = (a: number, b: number, step: number): boolean =>
  Math.abs(step) === 1 ? a >> 4 === b >> 4 : (a & 15) === (b & 15);

/** Common prefix of several lines (the moves every explanation agrees on). */
export function commonPrefix(lines: readonly Line[]): Move[] {
  if (lines.length === 0) return [];
  const first = lines[0]!.moves;
  let n = first.length;
  for (const l of lines) {
    let k = 0;
    while (
      k < n &&
      k < l.moves.length &&
      l.moves[k]!.from === first[k]!.from &&
      l.moves[k]!.to === first[k]!.to
    )
      k++;
    n = k;
  }
  return first.slice(0, n);
}
