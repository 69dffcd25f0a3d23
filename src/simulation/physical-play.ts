/**
 * Physical play: turns a game (moves) into what a board's sensors would report while people play
 * it, following the physical handling model of ../shared/spec/sensor-log.md — bounces, hovering,
 * slides, captures in any order or swapped in one scan, touches, illegal placements corrected,
 * takebacks, the pace between moves, setup from an empty board, clock buttons.
 *
 * Deterministic for a seed. Used by the tests that judge the move reader, by benchmarks and by
 * demos of the simulator.
 */
import { explainIllegal } from '../rules/explain.js';
import type { Position } from '../rules/position.js';
import { type Color, type Move, type Piece, type Square, squareFile, squareRank } from '../rules/types.js';
import type { Cells, Sensing } from '../sensors/snapshot.js';
import { rng } from './random.js';

export type Handling =
  | 'bounce'
  | 'idle_flicker'
  | 'hover'
  | 'slide'
  | 'capture_capturer_first'
  | 'capture_captured_first'
  | 'capture_swap'
  | 'touch'
  | 'illegal_placement'
  | 'takeback'
  | 'button'
  | 'setup_wrong_square';

export interface PhysicalOptions {
  readonly sensing: Sensing;
  readonly seed: number;
  /** Set up the start position piece by piece from an empty board (else the board starts set). */
  readonly setupFromEmpty?: boolean;
  /** Probabilities of each kind of handling where it can apply (0..1). */
  readonly rates?: Partial<Record<Handling, number>>;
  /** Clock buttons after every move (a board with buttons). */
  readonly buttons?: boolean;
}

export const DEFAULT_RATES: Record<Handling, number> = {
  bounce: 0.3,
  idle_flicker: 0.15,
  hover: 0.3,
  slide: 0.5,
  capture_capturer_first: 0.4,
  capture_captured_first: 0.3,
  capture_swap: 0.3,
  touch: 0.08,
  illegal_placement: 0.05,
  takeback: 0.04,
  button: 0.5,
  setup_wrong_square: 0.1,
};

export type PhysicalEvent =
  | { readonly type: 'snapshot'; readonly t: number; readonly cells: Cells }
  | { readonly type: 'button'; readonly t: number; readonly side: Color };

export interface PhysicalPlay {
  readonly events: PhysicalEvent[];
  /** How often each kind of handling was used. */
  readonly counts: Record<Handling, number>;
  /** Illegal placements made (each must raise an alert). */
  readonly illegalPlacements: number;
  /** Each illegal placement: the piece's square, where it was set down, and when. */
  readonly illegal: readonly { readonly from: Square; readonly to: Square; readonly t: number }[];
  readonly takebacks: number;
  /** Plies whose move was taken back (and played again). */
  readonly takebackPlies: number[];
  /** Plies whose move was a capture swapped within one scan (occupancy: seen only by later evidence). */
  readonly swapPlies: number[];
}

/** The physical board and the frames it reports, one per change of the sensors' reading. */
class Board {
  readonly pieces: (Piece | undefined)[] = new Array(90).fill(undefined);
  readonly events: PhysicalEvent[] = [];
  t = 0;
  private last: Cells | undefined;

  constructor(readonly sensing: Sensing) {}

  cellOf(piece: Piece | undefined): string {
    if (!piece) return '.';
    if (this.sensing === 'occupancy') return 'x';
    return piece.color === 'red' ? 'r' : 'b';
  }

  cells(override?: Map<Square, string>): Cells {
    let s = '';
    for (let sq = 0; sq < 90; sq++) s += override?.get(sq) ?? this.cellOf(this.pieces[sq]);
    return s;
  }

  /** Reports the current reading (with transient overrides) at time `t`, if it changed. */
  frame(t: number, override?: Map<Square, string>): void {
    if (t < this.t) throw new Error(`time went back: ${t} < ${this.t}`);
    this.t = t;
    const cells = this.cells(override);
    if (cells === this.last) return;
    this.last = cells;
    this.events.push({ type: 'snapshot', t, cells });
  }

  /** A frame repeating the reading unchanged (the board's heartbeat). */
  heartbeat(t: number): void {
    this.t = t;
    this.last = this.cells();
    this.events.push({ type: 'snapshot', t, cells: this.last });
  }

  button(t: number, side: Color): void {
    this.t = t;
    this.events.push({ type: 'button', t, side });
  }
}

export function setupPosition(pos: Position): (Piece | undefined)[] {
  const out: (Piece | undefined)[] = [];
  for (let sq = 0; sq < 90; sq++) out.push(pos.pieceAt(sq));
  return out;
}

/**
 * Physical play of `moves` from `start`. The moves must be legal (they are the game to record).
 */
export function physicalPlay(
  start: Position,
  moves: readonly Move[],
  options: PhysicalOptions,
): PhysicalPlay {
  const random = rng(options.seed);
  const rates = { ...DEFAULT_RATES, ...options.rates };
  const counts = Object.fromEntries(Object.keys(DEFAULT_RATES).map((k) => [k, 0])) as Record<
    Handling,
    number
  >;
  const chance = (h: Handling): boolean => random() < rates[h];
  const between = (lo: number, hi: number): number => Math.floor(lo + random() * (hi - lo + 1));
  const board = new Board(options.sensing);
  let illegalPlacements = 0;
  const illegal: { from: Square; to: Square; t: number }[] = [];
  let takebacks = 0;
  const takebackPlies: number[] = [];
  const swapPlies: number[] = [];

  // A piece set down or lifted may bounce (up to 30 ms) before its reading holds.
  const settle = (sq: Square, t: number): number => {
    if (!chance('bounce')) return t;
    counts.bounce++;
    const steady = board.cellOf(board.pieces[sq]);
    const other = steady === '.' ? (options.sensing === 'occupancy' ? 'x' : 'r') : '.';
    const end = t + between(4, 30);
    let at = t;
    let flip = true;
    while (at < end) {
      at += between(1, 8);
      if (at >= end) break;
      board.frame(at, new Map([[sq, flip ? other : steady]]));
      flip = !flip;
    }
    board.frame(end);
    return end;
  };
  const place = (sq: Square, piece: Piece, t: number): number => {
    board.pieces[sq] = piece;
    board.frame(t);
    return settle(sq, t);
  };
  const lift = (sq: Square, t: number): { piece: Piece; t: number } => {
    const piece = board.pieces[sq];
    if (!piece) throw new Error(`no piece to lift on ${sq}`);
    board.pieces[sq] = undefined;
    board.frame(t);
    return { piece, t: settle(sq, t) };
  };
  // An idle square flickers alone now and then.
  const maybeFlicker = (t: number): number => {
    if (!chance('idle_flicker')) return t;
    counts.idle_flicker++;
    const sq = between(0, 89);
    const steady = board.cellOf(board.pieces[sq]);
    const other = steady === '.' ? (options.sensing === 'occupancy' ? 'x' : 'b') : '.';
    board.frame(t, new Map([[sq, other]]));
    const end = t + between(1, 30);
    board.frame(end);
    return end;
  };
  const hover = (t: number): number => {
    if (!chance('hover')) return t + between(150, 600);
    counts.hover++;
    return maybeFlicker(t + between(200, 1200)) + between(200, 2500);
  };

  // ---- setup
  const target = setupPosition(start);
  let t = 0;
  if (options.setupFromEmpty) {
    board.frame(0);
    const order = target.map((p, sq) => (p ? sq : -1)).filter((sq) => sq >= 0);
    shuffle(order, random);
    t = 500;
    for (const sq of order) {
      const piece = target[sq]!;
      if (chance('setup_wrong_square')) {
        const wrong = emptySquares(board, target).filter((s) => s !== sq);
        if (wrong.length > 0) {
          counts.setup_wrong_square++;
          const w = wrong[between(0, wrong.length - 1)]!;
          t = place(w, piece, t) + between(300, 1500);
          t = lift(w, t).t + between(100, 400);
        }
      }
      t = place(sq, piece, t) + between(150, 700);
    }
  } else {
    for (let sq = 0; sq < 90; sq++) board.pieces[sq] = target[sq];
    board.frame(0);
    t = 0;
  }
  t += between(800, 1500);
  board.heartbeat(t);

  // ---- the game
  const pos = start.clone();
  let current = 0;
  let lastCaptured: Piece | undefined;
  for (let ply = 0; ply < moves.length; ply++) {
    current = ply;
    const move = moves[ply]!;
    const mover = pos.turn;
    t += between(350, 900); // pace: no lift sooner than 350 ms after the last move completed
    t = maybeFlicker(t);

    if (chance('touch')) {
      const own = occupiedBy(board, mover);
      const sq = own[between(0, own.length - 1)]!;
      counts.touch++;
      const lifted = lift(sq, t);
      t = place(sq, lifted.piece, lifted.t + between(100, 900)) + between(350, 800);
    }

    if (chance('illegal_placement')) {
      const wrong = illegalTarget(pos, move.from, board, random);
      if (wrong !== undefined) {
        counts.illegal_placement++;
        illegalPlacements++;
        const lifted = lift(move.from, t);
        t = place(wrong, lifted.piece, lifted.t + between(200, 800));
        illegal.push({ from: move.from, to: wrong, t });
        t += between(1200, 3000); // it stands there: the alert is raised
        const back = lift(wrong, t);
        t = playMove(move, back.piece, back.t + between(100, 500), true);
        finishMove(ply);
        continue;
      }
    }
    const lifted = board.pieces[move.from];
    if (!lifted) throw new Error(`ply ${ply + 1}: no piece on the board at the move's origin`);
    t = playMove(move, undefined, t, false);
    finishMove(ply);

    // A takeback of a swapped capture nobody could see yet (occupancy) is no takeback to the reader.
    const unseen = options.sensing === 'occupancy' && swapPlies.includes(ply + 1);
    if (ply < moves.length - 1 && !unseen && chance('takeback')) {
      counts.takeback++;
      takebacks++;
      takebackPlies.push(ply + 1);
      t = takeBack(move, t);
      t = playMove(move, undefined, t + between(400, 900), false);
      finishMove(ply);
    }
  }
  t += between(1000, 2000);
  board.heartbeat(t);
  return { events: board.events, counts, illegalPlacements, illegal, takebacks, takebackPlies, swapPlies };

  // ---- helpers that share the board and the random stream

  function finishMove(ply: number): void {
    const move = moves[ply]!;
    const mover = pos.turn;
    if (!pos.isLegal(move)) throw new Error(`ply ${ply + 1}: ${JSON.stringify(move)} is not legal`);
    lastCaptured = pos.play(move);
    if (options.buttons && (chance('button') || swapPlies.includes(ply + 1) || ply === moves.length - 1)) {
      counts.button++;
      t += between(80, 300);
      board.button(t, mover);
    }
  }

  /** Plays `move` physically from time `at`; `inHand` is the moving piece when already lifted. */
  function playMove(move: Move, inHand: Piece | undefined, at: number, fromHand: boolean): number {
    const captured = board.pieces[move.to];
    let time = at;
    let piece = inHand;
    const line =
      squareFile(move.from) === squareFile(move.to) || squareRank(move.from) === squareRank(move.to);
    const role = (inHand ?? board.pieces[move.from])?.role;
    const canSlide = !captured && line && (role === 'chariot' || role === 'cannon') && !fromHand;
    if (!captured) {
      if (canSlide && chance('slide')) {
        counts.slide++;
        return slide(move, time);
      }
      if (!piece) {
        const l = lift(move.from, time);
        piece = l.piece;
        time = hover(l.t);
      } else {
        time += between(100, 400);
      }
      return place(move.to, piece, time);
    }
    // A capture: the capturer first, the captured first, or both within one scan.
    const r = random();
    const swapRate = rates.capture_swap;
    const firstRate = rates.capture_capturer_first;
    if (!fromHand && r < swapRate && swapAllowed(move)) {
      counts.capture_swap++;
      swapPlies.push(current + 1);
      const l = lift(move.from, time);
      time = hover(l.t);
      // The captured piece leaves and the capturer lands between two scans.
      board.pieces[move.to] = l.piece;
      board.frame(time);
      return time;
    }
    if (fromHand || r < swapRate + firstRate) {
      counts.capture_capturer_first++;
      if (!piece) {
        const l = lift(move.from, time);
        piece = l.piece;
        time = l.t + between(100, 600);
      }
      time = lift(move.to, time).t + between(100, 500);
      return place(move.to, piece, time);
    }
    counts.capture_captured_first++;
    time = lift(move.to, time).t + between(100, 600);
    const l = lift(move.from, time);
    return place(move.to, l.piece, hover(l.t));
  }

  /** Swapped captures with occupancy sensing stay ambiguous unless the capture is the only one from there. */
  function swapAllowed(move: Move): boolean {
    if (options.sensing === 'colour') return true;
    // Nothing after the last move of a board without buttons would ever show it complete.
    if (current === moves.length - 1 && !options.buttons) return false;
    const captures = pos.legalDestinations(move.from).filter((to) => pos.pieceAt(to));
    return captures.length === 1;
  }

  function slide(move: Move, at: number): number {
    const step = squareFile(move.from) === squareFile(move.to) ? 9 : 1;
    const dir = move.to > move.from ? step : -step;
    const piece = board.pieces[move.from]!;
    board.pieces[move.from] = undefined;
    board.frame(at);
    let time = at;
    let previous: Square | undefined;
    for (let sq = move.from + dir; sq !== move.to; sq += dir) {
      time += between(20, 90);
      board.pieces[sq] = piece;
      board.frame(time);
      if (previous !== undefined) {
        // The next intersection may read occupied before the last one reads empty.
        time += between(0, 20);
        board.pieces[previous] = undefined;
        board.frame(time);
      }
      previous = sq;
    }
    time += between(20, 90);
    board.pieces[move.to] = piece;
    board.frame(time);
    if (previous !== undefined) {
      time += between(0, 20);
      board.pieces[previous] = undefined;
      board.frame(time);
    }
    return settle(move.to, time);
  }

  function takeBack(move: Move, at: number): number {
    const captured = lastCaptured;
    let time = at + between(350, 900);
    const l = lift(move.to, time);
    time = l.t + between(100, 500);
    time = place(move.from, l.piece, time);
    if (captured) time = place(move.to, captured, time + between(150, 600));
    pos.undo();
    return time;
  }
}

function shuffle<T>(a: T[], random: () => number): void {
  for (let i = a.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [a[i], a[j]] = [a[j]!, a[i]!];
  }
}

function emptySquares(board: Board, target: (Piece | undefined)[]): Square[] {
  const out: Square[] = [];
  for (let sq = 0; sq < 90; sq++) if (!board.pieces[sq] && !target[sq]) out.push(sq);
  return out;
}

function occupiedBy(board: Board, color: Color): Square[] {
  const out: Square[] = [];
  for (let sq = 0; sq < 90; sq++) if (board.pieces[sq]?.color === color) out.push(sq);
  return out;
}

/** An empty intersection where the piece on `from` may not legally go, near it (people misplace nearby). */
function illegalTarget(pos: Position, from: Square, board: Board, random: () => number): Square | undefined {
  const options: Square[] = [];
  for (let sq = 0; sq < 90; sq++) {
    if (board.pieces[sq] || sq === from) continue;
    const d = Math.abs(squareFile(sq) - squareFile(from)) + Math.abs(squareRank(sq) - squareRank(from));
    if (d > 3) continue;
    if (explainIllegal(pos, { from, to: sq }) !== undefined) options.push(sq);
  }
  if (options.length === 0) return undefined;
  return options[Math.floor(random() * options.length)];
}
