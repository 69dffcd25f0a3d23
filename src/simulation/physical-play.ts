/**
 * Physical play: turns a game (moves) into what a board's sensors would report while people play
 * it, following the physical handling model of ../shared/spec/sensor-log.md — bounces, hovering,
 * slides, captures in any order or swapped in one scan, touches, illegal placements corrected,
 * takebacks, the pace between moves, setup from an empty board, clock buttons; and, with the
 * `real` option, real play beyond the model (rules 10–16, ./real-play.ts).
 *
 * Deterministic for a seed. Used by the tests that judge the move reader, by benchmarks and by
 * demos of the simulator.
 */
import {
  type Color,
  explainIllegal,
  type Move,
  makeIccs,
  makeSquareName,
  type Piece,
  type Position,
  type Square,
  squareFile,
  squareRank,
} from '../rules/index.js';
import type { Sensing } from '../sensors/snapshot.js';
import { rng } from './random.js';
import {
  Board,
  type DeadTruth,
  firstUse,
  knockable,
  moveSquares,
  newRealCounts,
  type PhysicalEvent,
  REAL_OFF,
  type RealHandling,
  type RealPlay,
  type TruthEvent,
  withEvidence,
} from './real-play.js';

export type { PhysicalEvent, TruthEvent } from './real-play.js';

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
  /** Real play beyond the model (rules 10–16), each rule off unless given. */
  readonly real?: Partial<RealPlay>;
  /** The board repeats its whole reading this often (ms of log time); on at 1000 with lost frames. */
  readonly heartbeatMs?: number;
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
  /**
   * The game as really played: each move when it became physically complete (and `seen`, when the
   * sensors could show it only later), each takeback when done.
   */
  readonly truth: TruthEvent[];
  /** The dead sensor (rule 12), if any. */
  readonly dead?: DeadTruth;
  /** How often each rule of real play was used. */
  readonly realCounts: Record<RealHandling, number>;
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
  const real: RealPlay = { ...REAL_OFF, ...options.real };
  // Real play draws from a stream of its own: without it, a seed gives the same frames as always.
  const realRandom = rng((options.seed ^ 0x5bd1e995) >>> 0);
  const realCounts = newRealCounts();
  const realChance = (p: number): boolean => p > 0 && realRandom() < p;
  const realBetween = (lo: number, hi: number): number => Math.floor(lo + realRandom() * (hi - lo + 1));
  /** From setting one piece down to lifting the next (rule 10's fastest pace and on). */
  const handGap = (): number => realBetween(120, 350);
  // Answers draw from their own stream too: the game after one is the same, only later.
  const answerRandom = rng((options.seed ^ 0x27d4eb2f) >>> 0);
  const answerBetween = (lo: number, hi: number): number => Math.floor(lo + answerRandom() * (hi - lo + 1));
  const unanswered = [...real.answers].sort((a, b) => a.after - b.after);
  const heartbeatMs = options.heartbeatMs ?? (real.lostFrames > 0 ? 1000 : 0);
  const board = new Board(
    options.sensing,
    heartbeatMs > 0 || real.lostFrames > 0
      ? { lost: real.lostFrames, heartbeatMs, random: realRandom, counts: realCounts }
      : undefined,
  );
  board.lowerReads = real.lowerReads;
  const truth: TruthEvent[] = [];
  let dead: DeadTruth | undefined;
  // When the move being played became physically complete (the board first showed its result).
  let doneAt = 0;
  const dieAt = (at: number): void => {
    if (!real.dead) return;
    board.at(at);
    board.kill(real.dead);
    if (at > 0) board.frame(at);
    const sq = real.dead.square;
    dead = {
      square: sq,
      iccs: makeSquareName(sq),
      reads: real.dead.reads,
      fromPly: real.dead.fromPly,
      fromT: at,
      firstUsePly: firstUse(moves, sq, real.dead.fromPly),
    };
  };
  let illegalPlacements = 0;
  const illegal: { from: Square; to: Square; t: number }[] = [];
  let takebacks = 0;
  const takebackPlies: number[] = [];
  const swapPlies: number[] = [];
  const lateRemovalPlies: number[] = [];
  let placedAt = 0;

  // A piece set down or lifted may bounce (up to 30 ms) before its reading holds.
  const settle = (sq: Square, t: number): number => {
    if (!chance('bounce')) return t;
    counts.bounce++;
    const steady = board.reading(sq);
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
    board.put(sq, piece, t);
    placedAt = t;
    return settle(sq, t);
  };
  const lift = (sq: Square, t: number): { piece: Piece; t: number } => {
    board.at(t);
    const piece = board.pieces[sq];
    if (!piece) throw new Error(`no piece to lift on ${sq}`);
    board.put(sq, undefined, t);
    return { piece, t: settle(sq, t) };
  };
  // An idle square flickers alone now and then.
  const maybeFlicker = (t: number): number => {
    if (!chance('idle_flicker')) return t;
    counts.idle_flicker++;
    const sq = between(0, 89);
    const steady = board.reading(sq);
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
  if (real.dead?.fromPly === 0) dieAt(0);
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
    if (ply > 0 && real.dead?.fromPly === ply) dieAt(t + 1);
    const pace = between(350, 900); // pace: no lift sooner than 350 ms after the last move completed
    if (ply > 0 && realChance(real.fastReply)) {
      realCounts.fast_reply++;
      t = Math.max(t, doneAt + realBetween(50, 200));
    } else if (ply > 0 && realChance(real.fastPace)) {
      realCounts.fast_pace++;
      t = Math.max(t, doneAt + realBetween(120, 350));
    } else {
      t += pace;
    }
    // A piece knocked off or a captured piece not yet taken away is dealt with before the move.
    t = board.waitFor(moveSquares(move), t, handGap);
    while (unanswered.length > 0 && unanswered[0]!.after <= t) t = answer(unanswered.shift()!, t);
    t = maybeFlicker(t);

    if (realChance(real.straighten)) {
      const own = occupiedBy(board, mover).filter((sq) => sq !== move.from);
      if (own.length > 0) {
        realCounts.straighten++;
        const sq = own[realBetween(0, own.length - 1)]!;
        const lifted = lift(sq, t);
        t = place(sq, lifted.piece, t + realBetween(100, 400)) + realBetween(80, 300);
      }
    }

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
    if (realChance(real.knock)) knock(move, t);
    t = playMove(move, undefined, t, false);
    if (!board.busy(move.to) && realChance(real.nudge)) {
      realCounts.nudge++;
      const l = lift(move.to, t + realBetween(30, 250));
      t = place(move.to, l.piece, l.t + realBetween(100, 370));
    }
    finishMove(ply);

    // A takeback of a capture nobody could see yet (occupancy) is no takeback to the reader.
    const unseen =
      options.sensing === 'occupancy' && (swapPlies.includes(ply + 1) || lateRemovalPlies.includes(ply + 1));
    if (ply < moves.length - 1 && !unseen && chance('takeback')) {
      counts.takeback++;
      takebacks++;
      takebackPlies.push(ply + 1);
      t = takeBack(move, t);
      t = playMove(move, undefined, t + between(400, 900), false);
      finishMove(ply);
    }
  }
  t = board.flush(t);
  t += between(1000, 2000);
  board.heartbeat(t);
  return {
    events: board.events,
    counts,
    illegalPlacements,
    illegal,
    takebacks,
    takebackPlies,
    swapPlies,
    truth: withEvidence(truth, board.changes, moves, options.sensing, t),
    ...(dead ? { dead } : {}),
    realCounts,
  };

  // ---- helpers that share the board and the random stream

  function finishMove(ply: number): void {
    const move = moves[ply]!;
    const mover = pos.turn;
    if (!pos.isLegal(move)) throw new Error(`ply ${ply + 1}: ${JSON.stringify(move)} is not legal`);
    lastCaptured = pos.play(move);
    truth.push({ t: doneAt, kind: 'move', ply: ply + 1, iccs: makeIccs(move) });
    if (options.buttons && (chance('button') || swapPlies.includes(ply + 1) || ply === moves.length - 1)) {
      counts.button++;
      t += between(80, 300);
      board.button(t, mover);
    }
  }

  /** The players lift each piece standing on the squares an alert names, and set it back. */
  function answer(a: { readonly squares: readonly Square[] }, at: number): number {
    realCounts.answer++;
    let time = at;
    for (const sq of a.squares) {
      const piece = board.pieces[sq];
      if (!piece || board.busy(sq)) continue;
      board.put(sq, undefined, time);
      time += answerBetween(300, 800);
      board.put(sq, piece, time);
      time += answerBetween(200, 500);
    }
    return time;
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
      return land(move.to, piece, time);
    }
    // A capture: the capturer first, the captured first, or both within one scan.
    const r = random();
    if (lateRemovalAllowed() && realChance(real.lateRemoval)) return lateRemoval(move, piece, captured, time);
    const swapRate = rates.capture_swap;
    const firstRate = rates.capture_capturer_first;
    if (!fromHand && r < swapRate && swapAllowed(move)) {
      counts.capture_swap++;
      swapPlies.push(current + 1);
      const l = lift(move.from, time);
      time = hover(l.t);
      // The captured piece leaves and the capturer lands between two scans.
      board.put(move.to, l.piece, time);
      doneAt = time;
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
      return land(move.to, piece, time);
    }
    counts.capture_captured_first++;
    time = lift(move.to, time).t + between(100, 600);
    const l = lift(move.from, time);
    return land(move.to, l.piece, hover(l.t));
  }

  /** The moving piece set down where the move ends: the move is complete. */
  function land(sq: Square, piece: Piece, at: number): number {
    const end = place(sq, piece, at);
    doneAt = at;
    return end;
  }

  function lateRemovalAllowed(): boolean {
    if (real.lateRemoval <= 0) return false;
    // As with swaps: nothing after the last move of a board without buttons would show it (occupancy).
    return options.sensing === 'colour' || current < moves.length - 1 || options.buttons === true;
  }

  /** Rule 15: the capturer set down on the captured piece, which is taken away 1–4 s later. */
  function lateRemoval(move: Move, inHand: Piece | undefined, captured: Piece, at: number): number {
    realCounts.late_removal++;
    lateRemovalPlies.push(current + 1);
    let time = at;
    let piece = inHand;
    if (!piece) {
      const l = lift(move.from, time);
      piece = l.piece;
      time = hover(l.t);
    } else {
      time += realBetween(100, 400);
    }
    const to = move.to;
    board.at(time);
    board.under.set(to, captured);
    board.put(to, piece, time);
    doneAt = time;
    board.schedule(time + realBetween(1000, 4000), to, () => board.under.delete(to));
    return time;
  }

  /** Rule 14: a piece next to the move's squares knocked off its intersection and put back later. */
  function knock(move: Move, at: number): void {
    const near = knockable(board, move);
    if (near.length === 0) return;
    realCounts.knock++;
    const sq = near[realBetween(0, near.length - 1)]!;
    const off = at + realBetween(20, 250);
    board.knockOff(sq, off, off + realBetween(300, 2000));
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
    board.put(move.from, undefined, at);
    let time = at;
    let previous: Square | undefined;
    // Rule 11: the piece may rest on one intersection on its way.
    const way = Math.abs(move.to - move.from) / step - 1;
    let rest: Square | undefined;
    if (way > 0 && realChance(real.hesitate)) {
      realCounts.hesitate++;
      rest = move.from + dir * realBetween(1, way);
    }
    for (let sq = move.from + dir; sq !== move.to; sq += dir) {
      time += between(20, 90);
      board.put(sq, piece, time);
      if (previous !== undefined) {
        // The next intersection may read occupied before the last one reads empty.
        time += between(0, 20);
        board.put(previous, undefined, time);
      }
      previous = sq;
      if (sq === rest) time += realBetween(150, 600);
    }
    time += between(20, 90);
    board.put(move.to, piece, time);
    if (previous !== undefined) {
      time += between(0, 20);
      board.put(previous, undefined, time);
    }
    doneAt = time;
    return settle(move.to, time);
  }

  function takeBack(move: Move, at: number): number {
    const captured = lastCaptured;
    let time = board.waitFor([move.from, move.to], at + between(350, 900), handGap);
    const l = lift(move.to, time);
    time = l.t + between(100, 500);
    time = place(move.from, l.piece, time);
    if (captured) time = place(move.to, captured, time + between(150, 600));
    truth.push({ t: placedAt, kind: 'retract', ply: current + 1 });
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
  for (let sq = 0; sq < 90; sq++) if (board.pieces[sq]?.color === color && !board.busy(sq)) out.push(sq);
  return out;
}

/** An empty intersection where the piece on `from` may not legally go, near it (people misplace nearby). */
function illegalTarget(pos: Position, from: Square, board: Board, random: () => number): Square | undefined {
  const options: Square[] = [];
  for (let sq = 0; sq < 90; sq++) {
    if (board.pieces[sq] || sq === from || board.busy(sq)) continue;
    const d = Math.abs(squareFile(sq) - squareFile(from)) + Math.abs(squareRank(sq) - squareRank(from));
    if (d > 3) continue;
    if (explainIllegal(pos, { from, to: sq }) !== undefined) options.push(sq);
  }
  if (options.length === 0) return undefined;
  return options[Math.floor(random() * options.length)];
}
