/**
 * Real play beyond the handling model (rules 10–16 of ../shared/spec/sensor-log.md): the options,
 * the physical board with what real hardware adds (a dead sensor, lost frames, heartbeats, a
 * captured piece still under its capturer, pieces off their intersection for a while), and helpers
 * to choose a dead square.
 */
import {
  type Color,
  type Move,
  type Piece,
  type Position,
  type Square,
  squareFile,
  squareRank,
} from '../rules/index.js';
import type { Cells, Sensing } from '../sensors/snapshot.js';

/** Rules 10–16, each off (0 / undefined) unless given. Numbers are probabilities unless named a rate. */
export interface RealPlay {
  /** 10: per ply, the next piece is lifted 120–350 ms after the last landing (instead of ≥ 350). */
  readonly fastPace: number;
  /** 10: per ply, the reply piece is lifted 50–200 ms after the mover's piece lands. */
  readonly fastReply: number;
  /** 11: per slide with a square on its way, the piece rests 150–600 ms on one of them. */
  readonly hesitate: number;
  /** 12: one intersection reads the same whatever stands on it, from ply `fromPly` (0: from the start). */
  readonly dead: DeadSensor | undefined;
  /** 13: rate of snapshot frames lost on the link (never the first); heartbeats come with it. */
  readonly lostFrames: number;
  /** 14: per move, the mover knocks a neighbouring piece off for 300–2000 ms. */
  readonly knock: number;
  /** 15: per capture, the capturer is set down on the captured piece, removed 1–4 s later. */
  readonly lateRemoval: number;
  /**
   * 15, colour sensing: the sensor reads the lower piece (the captured one) until it is taken away;
   * otherwise it reads the capturer on top at once.
   */
  readonly lowerReads: boolean;
  /** 16: per move, the mover nudges the piece just set down (lifted and set down in 100–400 ms). */
  readonly nudge: number;
  /** 16: per ply, the side to move straightens one of its own pieces before moving. */
  readonly straighten: number;
  /**
   * Players who do what the board asks: before the first ply that starts at or after `after`, the
   * side to move lifts each piece standing on `squares` and sets it back (an alert's `check`).
   */
  readonly answers: readonly Answer[];
}

/** What the players do in answer to an alert that asks them to lift pieces and set them back. */
export interface Answer {
  /** The soonest the players act (the alert's time and their reaction). */
  readonly after: number;
  readonly squares: readonly Square[];
}

export interface DeadSensor {
  readonly square: Square;
  /** `occupied` reads `x`, or with colour sensing the colour of the piece there when it died (else `r`). */
  readonly reads: 'empty' | 'occupied';
  /** The ply (0-based) from whose start the sensor is dead. */
  readonly fromPly: number;
}

export const REAL_OFF: RealPlay = {
  fastPace: 0,
  fastReply: 0,
  hesitate: 0,
  dead: undefined,
  lostFrames: 0,
  knock: 0,
  lateRemoval: 0,
  lowerReads: false,
  nudge: 0,
  straighten: 0,
  answers: [],
};

/** The intensities the judging table uses for each rule alone (the spec gives durations, not rates). */
export const REAL_SPEC: Omit<RealPlay, 'dead' | 'answers'> = {
  fastPace: 1,
  fastReply: 1,
  hesitate: 1,
  lostFrames: 0.02,
  knock: 0.05,
  lateRemoval: 1,
  lowerReads: false,
  nudge: 0.3,
  straighten: 0.15,
};

export type RealHandling =
  | 'fast_pace'
  | 'fast_reply'
  | 'hesitate'
  | 'lost_frame'
  | 'heartbeat'
  | 'knock'
  | 'late_removal'
  | 'nudge'
  | 'straighten'
  | 'answer';

export const newRealCounts = (): Record<RealHandling, number> => ({
  fast_pace: 0,
  fast_reply: 0,
  hesitate: 0,
  lost_frame: 0,
  heartbeat: 0,
  knock: 0,
  late_removal: 0,
  nudge: 0,
  straighten: 0,
  answer: 0,
});

/** What really happened, in order: the record a perfect reader would have at each moment. */
export type TruthEvent =
  | {
      readonly t: number;
      readonly kind: 'move';
      readonly ply: number;
      readonly iccs: string;
      /**
       * When the sensors first showed it, if later than `t`: a capture that changed nothing on the
       * board (swapped within a scan or set down on the captured piece, rule 15), or a landing on a
       * dead square, is seen only at the next change or clock button.
       */
      readonly seen?: number;
    }
  | {
      readonly t: number;
      readonly kind: 'retract';
      readonly ply: number;
      /** When the frames first showed it, if later than `t` (see `withEvidence`). */
      readonly seen?: number;
    };

export interface DeadTruth {
  readonly square: Square;
  /** The square in ICCS (`e5`), as a `sensor_fault` alert names it. */
  readonly iccs: string;
  readonly reads: 'empty' | 'occupied';
  readonly fromPly: number;
  /** When it died (0 from the start). */
  readonly fromT: number;
  /** The first ply (1-based, as move events count) at or after its death whose move leaves or lands on it. */
  readonly firstUsePly: number | undefined;
}

export type PhysicalEvent =
  /** `since`: frames were lost before this one, as the serial link's sequence numbers tell. */
  | { readonly type: 'snapshot'; readonly t: number; readonly cells: Cells; readonly since?: number }
  | { readonly type: 'button'; readonly t: number; readonly side: Color };

interface Link {
  readonly lost: number;
  readonly heartbeatMs: number;
  readonly random: () => number;
  readonly counts: Record<RealHandling, number>;
}

interface Due {
  readonly t: number;
  readonly square: Square;
  readonly run: () => void;
}

/** The physical board and the frames it reports, one per change of the sensors' reading. */
export class Board {
  readonly pieces: (Piece | undefined)[] = new Array(90).fill(undefined);
  /** Captured pieces still under their capturer (rule 15). */
  readonly under = new Map<Square, Piece>();
  /** The sensor under a stack reads the lower piece (else the capturer on top). */
  lowerReads = false;
  readonly events: PhysicalEvent[] = [];
  /** When the reading the link delivered changed, or a button was pressed: evidence. */
  readonly changes: Change[] = [];
  t = 0;
  private last: Cells | undefined;
  /** The last reading the link delivered. */
  private delivered: Cells | undefined;
  /** When the last frame the link delivered was sent, and the one before frames it lost since. */
  private sentAt = 0;
  private lostSince: number | undefined;
  private dead: { square: Square; cell: string } | undefined;
  private nextBeat: number;
  private readonly due: Due[] = [];

  constructor(
    readonly sensing: Sensing,
    private readonly link?: Link,
  ) {
    this.nextBeat = link && link.heartbeatMs > 0 ? link.heartbeatMs : Number.POSITIVE_INFINITY;
  }

  cellOf(piece: Piece | undefined): string {
    if (!piece) return '.';
    if (this.sensing === 'occupancy') return 'x';
    return piece.color === 'red' ? 'r' : 'b';
  }

  /** What the sensor under `sq` reads when nothing transient happens. */
  reading(sq: Square): string {
    return this.cellOf((this.lowerReads ? this.under.get(sq) : undefined) ?? this.pieces[sq]);
  }

  cells(override?: Map<Square, string>): Cells {
    let s = '';
    for (let sq = 0; sq < 90; sq++) s += override?.get(sq) ?? this.reading(sq);
    if (!this.dead) return s;
    const d = this.dead.square;
    return s.slice(0, d) + this.dead.cell + s.slice(d + 1);
  }

  kill(dead: DeadSensor): void {
    const cell =
      dead.reads === 'empty'
        ? '.'
        : this.sensing === 'occupancy'
          ? 'x'
          : this.cellOf(this.pieces[dead.square]) === 'b'
            ? 'b'
            : 'r';
    this.dead = { square: dead.square, cell };
  }

  /** Reports the current reading (with transient overrides) at time `t`, if it changed. */
  frame(t: number, override?: Map<Square, string>): void {
    if (t < this.t) throw new Error(`time went back: ${t} < ${this.t}`);
    this.advance(t);
    this.t = t;
    const cells = this.cells(override);
    if (cells === this.last) return;
    this.send(t, cells);
  }

  /** Lets time run to `t` (heartbeats, what is due) before the board changes at `t`. */
  at(t: number): void {
    if (t < this.t) throw new Error(`time went back: ${t} < ${this.t}`);
    this.advance(t);
    this.t = t;
  }

  /** Sets (or clears) the piece on `sq` at time `t` and reports the reading. */
  put(sq: Square, piece: Piece | undefined, t: number): void {
    this.at(t);
    this.pieces[sq] = piece;
    this.frame(t);
  }

  /** A frame repeating the reading unchanged (the board's heartbeat). */
  heartbeat(t: number): void {
    this.advance(t);
    this.t = t;
    this.send(t, this.cells());
  }

  button(t: number, side: Color): void {
    this.advance(t);
    this.t = t;
    this.changes.push({ t, squares: undefined });
    this.events.push({ type: 'button', t, side });
  }

  /** Something that happens at `t` on `square` while play goes on (a piece put back, one taken away). */
  schedule(t: number, square: Square, run: () => void): void {
    this.due.push({ t, square, run });
    this.due.sort((a, b) => a.t - b.t);
  }

  /** Rule 14: the piece on `sq` off its intersection from `off` to `back`, while play goes on. */
  knockOff(sq: Square, off: number, back: number): void {
    let piece: Piece | undefined;
    this.schedule(off, sq, () => {
      piece = this.pieces[sq];
      this.pieces[sq] = undefined;
    });
    this.schedule(back, sq, () => {
      this.pieces[sq] = piece;
    });
  }

  busy(sq: Square): boolean {
    return this.due.some((d) => d.square === sq);
  }

  /**
   * Waits (from `t`) until nothing is due on `squares`; returns the time then. A hand that had to
   * put a piece back (or take one away) first reaches for the next one `gap()` ms later at the
   * soonest (rule 10: never sooner than 120 ms).
   */
  waitFor(squares: readonly Square[], t: number, gap: () => number): number {
    let last = -1;
    for (const d of this.due) if (squares.includes(d.square)) last = Math.max(last, d.t);
    if (last < 0) return t;
    const at = Math.max(t, last + gap());
    this.frame(at);
    return at;
  }

  /** Lets everything due happen; returns the time after it. */
  flush(t: number): number {
    const last = this.due.reduce((m, d) => Math.max(m, d.t), -1);
    if (last < 0) return t;
    const at = Math.max(t, last + 1);
    this.frame(at);
    return at;
  }

  private send(t: number, cells: Cells): void {
    const first = this.events.length === 0;
    this.last = cells;
    const link = this.link;
    if (!first && link && link.lost > 0 && link.random() < link.lost) {
      link.counts.lost_frame++;
      this.lostSince ??= this.sentAt;
      return;
    }
    const since = this.lostSince;
    this.lostSince = undefined;
    this.sentAt = t;
    // Evidence is what the link delivered: a change a lost frame hid shows at the next frame.
    const before = this.delivered;
    if (cells !== before) {
      const squares: Square[] = [];
      for (let sq = 0; sq < 90; sq++) if (cells[sq] !== before?.[sq]) squares.push(sq);
      this.changes.push({ t, squares, cells, ...(since !== undefined ? { since } : {}) });
    }
    this.delivered = cells;
    this.events.push({ type: 'snapshot', t, cells, ...(since !== undefined ? { since } : {}) });
  }

  /** Runs what is due and the heartbeats up to `t`, each at its own time. */
  private advance(t: number): void {
    for (;;) {
      const due = this.due[0];
      const dueT = due ? due.t : Number.POSITIVE_INFINITY;
      const next = Math.min(dueT, this.nextBeat);
      if (next > t) return;
      this.t = Math.max(this.t, next);
      if (due && dueT <= this.nextBeat) {
        this.due.shift();
        due.run();
        const cells = this.cells();
        if (cells !== this.last) this.send(this.t, cells);
      } else {
        this.link!.counts.heartbeat++;
        this.send(this.nextBeat, this.last ?? this.cells()); // what the sensors read then, a bounce too
        this.nextBeat += this.link!.heartbeatMs;
      }
    }
  }
}

/** The squares a move leaves, lands on, and (a chariot or cannon on a line) passes over. */
export function moveSquares(move: Move): Square[] {
  const out = [move.from, move.to];
  const sameFile = squareFile(move.from) === squareFile(move.to);
  if (!sameFile && squareRank(move.from) !== squareRank(move.to)) return out;
  const step = (sameFile ? 9 : 1) * (move.to > move.from ? 1 : -1);
  for (let sq = move.from + step; sq !== move.to; sq += step) out.push(sq);
  return out;
}

/**
 * A change of the reading the link delivered (the squares that changed since the last frame it
 * delivered, and the reading then), or a clock button (no squares). `since`: frames were lost before it.
 */
export interface Change {
  readonly t: number;
  readonly squares: readonly Square[] | undefined;
  readonly cells?: Cells;
  readonly since?: number;
}

/** A reading that changes back within this is a bounce (rule 1 of the spec): it shows nothing. */
const BOUNCE_MS = 30;

/**
 * Each move's and takeback's `seen`, from what the link delivered. A move whose completion changed
 * the reading is seen then; one whose frame was lost, at the next frame that shows one of its
 * squares changed. One that changed nothing (a capture swapped in one scan or set down on the
 * captured piece, a landing on a dead square) is seen at the first clock button after it, or when
 * the next move is seen (the opponent's completed reply shows it was over), or with colour sensing
 * when one of its squares changes (the captured piece taken away shows the capturer's colour),
 * whichever comes first. With occupancy a change on its squares proves nothing: the piece on the
 * target may be either. A takeback is seen when a frame shows the piece back on its point for
 * longer than a bounce, or when what follows it is seen (a takeback whose resting frames were all
 * lost, the piece lifted again at once, shows only in the move played in its place).
 */
export function withEvidence(
  truth: readonly TruthEvent[],
  changes: readonly Change[],
  moves: readonly Move[],
  sensing: Sensing,
  end: number,
): TruthEvent[] {
  const touches = (c: Change, move: Move): boolean =>
    c.squares !== undefined && (c.squares.includes(move.from) || c.squares.includes(move.to));
  const own = (c: Change, move: Move): boolean => sensing === 'colour' && touches(c, move);
  const out = [...truth];
  let next = end;
  for (let k = out.length - 1; k >= 0; k--) {
    const e = out[k]!;
    const move = moves[e.ply - 1]!;
    let seen = next;
    let lo = 0;
    let hi = changes.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (changes[mid]!.t < e.t) lo = mid + 1;
      else hi = mid;
    }
    for (let i = lo; i < changes.length; i++) {
      const c = changes[i]!;
      if (c.t >= seen) break;
      if (e.kind === 'retract' ? backOnItsPoint(changes, i, move) : shows(c, e.t, move)) {
        seen = c.t;
        break;
      }
    }
    if (seen > e.t) out[k] = { ...e, seen };
    next = Math.max(e.t, seen);
  }
  return out;

  function shows(c: Change, t: number, move: Move): boolean {
    return (
      c.t === t || !c.squares || own(c, move) || (c.since !== undefined && c.since < t && touches(c, move))
    );
  }

  function backOnItsPoint(all: readonly Change[], i: number, move: Move): boolean {
    const c = all[i]!;
    if (c.cells === undefined || c.cells[move.from] === '.') return false;
    for (let j = i + 1; j < all.length && all[j]!.t < c.t + BOUNCE_MS; j++)
      if (all[j]!.squares?.includes(move.from)) return false;
    return true;
  }
}

/** Pieces a hand making `move` could knock: next to its ends, off its path, not already away. */
export function knockable(board: Board, move: Move): Square[] {
  const path = moveSquares(move);
  return [...new Set([...neighbours(move.from), ...neighbours(move.to)])]
    .sort((a, b) => a - b)
    .filter((sq) => !path.includes(sq) && board.pieces[sq] !== undefined && !board.busy(sq));
}

/** Intersections next to `sq` (the eight around it). */
export function neighbours(sq: Square): Square[] {
  const out: Square[] = [];
  const f = squareFile(sq);
  const r = squareRank(sq);
  for (let df = -1; df <= 1; df++)
    for (let dr = -1; dr <= 1; dr++) {
      if (df === 0 && dr === 0) continue;
      const nf = f + df;
      const nr = r + dr;
      if (nf >= 0 && nf < 9 && nr >= 0 && nr < 10) out.push(nr * 9 + nf);
    }
  return out;
}

/** The first ply (1-based) at or after `fromPly` (0-based) whose move leaves or lands on `square`. */
export function firstUse(moves: readonly Move[], square: Square, fromPly: number): number | undefined {
  for (let i = fromPly; i < moves.length; i++) {
    const m = moves[i]!;
    if (m.from === square || m.to === square) return i + 1;
  }
  return undefined;
}

/**
 * A square for a dead sensor from ply `fromPly`:
 * - `used`: a from/to of a move at or after `fromPly`; it reads empty or occupied at random; never
 *   one first used by the last move landing on it unseen, unless a clock button follows it
 *   (`lastShown`);
 * - `unused`: never a from/to of any move (a piece may stand on it all game); it reads the opposite
 *   of what stands there when it dies, so it contradicts the position;
 * - `untouched`: never a from/to and never occupied at any ply; it reads occupied.
 * Undefined when no square fits.
 */
export function pickDeadSquare(
  start: Position,
  moves: readonly Move[],
  kind: 'used' | 'unused' | 'untouched',
  fromPly: number,
  random: () => number,
  lastShown = false,
): DeadSensor | undefined {
  const pick = (list: Square[]): Square | undefined =>
    list.length === 0 ? undefined : list[Math.floor(random() * list.length)];
  const endpoints = new Set<Square>();
  for (const m of moves) endpoints.add(m.from).add(m.to);
  if (kind === 'used') {
    const later = new Set<Square>();
    for (const m of moves.slice(fromPly)) later.add(m.from).add(m.to);
    const list = [...later].sort((a, b) => a - b);
    const square = pick(list);
    if (square === undefined) return undefined;
    const reads = random() < 0.5 ? 'empty' : 'occupied';
    // As with swaps: the last move landing unseen on a square first used then, with no clock button
    // after it, is a move nothing would ever show, so no reader can say anything of it: another.
    const last = moves.length - 1;
    if (
      !lastShown &&
      reads === 'empty' &&
      firstUse(moves, square, fromPly) === last + 1 &&
      moves[last]!.to === square
    ) {
      // (The next square of the list, drawing nothing more: the games after it keep theirs.)
      const other = list[(list.indexOf(square) + 1) % list.length]!;
      return other === square ? undefined : { square: other, reads, fromPly };
    }
    return { square, reads, fromPly };
  }
  const pos = start.clone();
  const everOccupied = new Set<Square>();
  const atDeath = new Set<Square>();
  for (let i = 0; i <= moves.length; i++) {
    for (let sq = 0; sq < 90; sq++) {
      if (!pos.pieceAt(sq)) continue;
      everOccupied.add(sq);
      if (i === fromPly) atDeath.add(sq);
    }
    if (i < moves.length) pos.play(moves[i]!);
  }
  const free: Square[] = [];
  for (let sq = 0; sq < 90; sq++) {
    if (endpoints.has(sq)) continue;
    if (kind === 'untouched' && everOccupied.has(sq)) continue;
    free.push(sq);
  }
  const square = pick(free);
  if (square === undefined) return undefined;
  return { square, reads: atDeath.has(square) ? 'empty' : 'occupied', fromPly };
}
