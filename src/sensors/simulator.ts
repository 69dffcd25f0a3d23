/**
 * A virtual board: physical pieces that code (tests, the terminal, later the web page) lifts and
 * places, read by virtual sensors of either kind. It is a `SensorSource` like the real drivers: a
 * snapshot on every change of the readings and as a heartbeat, button presses, link up and down.
 * Noise helpers (a bouncing intersection, a slide) run on an injected clock.
 */

import {
  type Color,
  defaultSetup,
  makePieceLetter,
  makeSquareName,
  type Piece,
  parseFen,
  type Role,
  type Setup,
  type Square,
  squareFile,
  squareRank,
} from '../rules/index.js';
import { type Clock, systemClock } from '../util/clock.js';
import { Listeners } from '../util/listeners.js';
import { type CodedError, err, ok, type Result } from '../util/result.js';
import { type Cells, cellsOf, type Sensing } from './snapshot.js';
import type { SensorEvent, SensorListener, SensorSource, SourceHealth } from './source.js';

export type SimulatorErrorCode =
  | 'empty_square'
  | 'occupied'
  | 'empty_hand'
  | 'bad_square'
  | 'bad_fen'
  | 'not_a_line'
  | 'interrupted';
export type SimulatorError = CodedError<SimulatorErrorCode>;

export interface SimulatorOptions {
  readonly id?: string;
  readonly sensing?: Sensing;
  readonly clock?: Clock;
  /** A full snapshot this often even when nothing changes; 0 for none. Default 1000. */
  readonly heartbeatMs?: number;
  /** The pieces on the board before anyone touches it: `'empty'`, a FEN, or a setup. Default: the start position. */
  readonly position?: 'empty' | string | Setup;
}

const fail = (code: SimulatorErrorCode, message: string): { ok: false; error: SimulatorError } =>
  err({ code, message });

const checkSquare = (sq: Square): SimulatorError | undefined =>
  Number.isInteger(sq) && sq >= 0 && sq < 90
    ? undefined
    : { code: 'bad_square', message: `${sq} is not a square (0..89)` };

export class BoardSimulator implements SensorSource {
  readonly id: string;
  readonly sensing: Sensing;
  private readonly clock: Clock;
  private readonly heartbeatMs: number;
  private readonly listeners = new Listeners<SensorEvent>();
  private board: (Piece | undefined)[] = new Array(90).fill(undefined);
  /** Pieces in the players' hands, most recently lifted last. */
  private held: Piece[] = [];
  /** Readings that differ from the pieces for a while (bounce, slide): square → reading. */
  private readonly overrides = new Map<Square, string>();
  private lastEmitted: Cells | undefined;
  private batchDepth = 0;
  private running = false;
  private cancelHeartbeat: (() => void) | undefined;
  private readonly noiseTimers = new Set<() => void>();
  private snapshots = 0;

  constructor(options: SimulatorOptions = {}) {
    this.id = options.id ?? 'sim';
    this.sensing = options.sensing ?? 'occupancy';
    this.clock = options.clock ?? systemClock;
    this.heartbeatMs = options.heartbeatMs ?? 1000;
    const position = options.position ?? defaultSetup();
    if (position !== 'empty') {
      // A bad FEN here is a programming error of the caller: fail loudly before anything runs.
      const r = this.setPosition(position);
      if (!r.ok) throw new TypeError(r.error.message);
    }
  }

  // --- SensorSource ---------------------------------------------------------------------------

  subscribe(listener: SensorListener): () => void {
    return this.listeners.add(listener);
  }

  health(): SourceHealth {
    return { badFrames: 0, snapshots: this.snapshots, reconnects: 0, linkUp: this.running };
  }

  async start(): Promise<void> {
    if (this.running) return;
    this.running = true;
    this.send({ type: 'link', t: this.clock.now(), up: true });
    this.emitSnapshot();
    this.scheduleHeartbeat();
  }

  async stop(): Promise<void> {
    if (!this.running) return;
    this.cancelHeartbeat?.();
    this.cancelHeartbeat = undefined;
    for (const cancel of this.noiseTimers) cancel();
    this.noiseTimers.clear();
    this.overrides.clear();
    this.send({ type: 'link', t: this.clock.now(), up: false, reason: 'stopped' });
    this.running = false;
  }

  // --- What is on the board -------------------------------------------------------------------

  pieceAt(square: Square): Piece | undefined {
    return this.board[square];
  }

  /** The pieces on the board, indexed by square. */
  get pieces(): readonly (Piece | undefined)[] {
    return this.board;
  }

  /** Pieces lifted and not yet set down, most recent last. */
  get hand(): readonly Piece[] {
    return this.held;
  }

  /** What the sensors read now (noise included). */
  get cells(): Cells {
    const base = cellsOf(this.board, this.sensing);
    if (this.overrides.size === 0) return base;
    const chars = base.split('');
    for (const [sq, reading] of this.overrides) chars[sq] = reading;
    return chars.join('');
  }

  // --- Handling pieces ------------------------------------------------------------------------

  /** Lifts the piece on `square` into the hand. */
  lift(square: Square): Result<Piece, SimulatorError> {
    const bad = checkSquare(square);
    if (bad) return err(bad);
    const piece = this.board[square];
    if (!piece) return fail('empty_square', `nothing to lift on ${makeSquareName(square)}`);
    this.board[square] = undefined;
    this.held.push(piece);
    this.changed();
    return ok(piece);
  }

  /**
   * Sets a piece down on an empty `square`: the given piece (taken from the hand if one like it is
   * there, else from the box), or without one the piece lifted last.
   */
  place(square: Square, piece?: Piece): Result<Piece, SimulatorError> {
    const bad = checkSquare(square);
    if (bad) return err(bad);
    if (this.board[square]) {
      return fail(
        'occupied',
        `${makeSquareName(square)} already holds ${describePiece(this.board[square]!)}`,
      );
    }
    let placed: Piece;
    if (piece) {
      const i = this.held.findLastIndex((p) => p.color === piece.color && p.role === piece.role);
      if (i >= 0) this.held.splice(i, 1);
      placed = { color: piece.color, role: piece.role };
    } else {
      const last = this.held.pop();
      if (!last) return fail('empty_hand', `no piece in hand to set down on ${makeSquareName(square)}`);
      placed = last;
    }
    this.board[square] = placed;
    this.changed();
    return ok(placed);
  }

  /** Takes the piece on `square` off the board altogether (a captured piece put aside). */
  remove(square: Square): Result<Piece, SimulatorError> {
    const bad = checkSquare(square);
    if (bad) return err(bad);
    const piece = this.board[square];
    if (!piece) return fail('empty_square', `nothing to remove on ${makeSquareName(square)}`);
    this.board[square] = undefined;
    this.changed();
    return ok(piece);
  }

  /**
   * A move as most people make it: lift the piece, put a captured piece aside, set the piece down.
   * Each step is a snapshot; wrap it in `batch` for a move the sensors see in one scan.
   */
  move(from: Square, to: Square): Result<Piece, SimulatorError> {
    const piece = this.lift(from);
    if (!piece.ok) return piece;
    if (this.board[to]) {
      const removed = this.remove(to);
      if (!removed.ok) return removed;
    }
    return this.place(to);
  }

  /** Changes made inside `fn` reach the sensors together: one snapshot at the end (if anything changed). */
  batch<T>(fn: () => T): T {
    this.batchDepth++;
    try {
      return fn();
    } finally {
      this.batchDepth--;
      this.changed();
    }
  }

  /** A player pressed their clock button. */
  press(side: Color): void {
    if (this.running) this.send({ type: 'button', t: this.clock.now(), side });
  }

  /** Puts the board in this position (hands emptied): a FEN or a setup. */
  setPosition(position: string | Setup): Result<void, SimulatorError> {
    let board: Setup['board'];
    if (typeof position === 'string') {
      const setup = parseFen(position);
      if (!setup.ok) return fail('bad_fen', setup.error.message);
      board = setup.value.board;
    } else {
      board = position.board;
    }
    this.board = Array.from({ length: 90 }, (_, sq) => board[sq]);
    this.held = [];
    this.changed();
    return ok(undefined);
  }

  /** Every piece off the board and out of the hands. */
  clear(): void {
    this.board = new Array(90).fill(undefined);
    this.held = [];
    this.changed();
  }

  // --- Physical noise, on the clock -----------------------------------------------------------

  /**
   * The intersection reads `reading` for `ms`, then its true state again: a bounce. Default
   * reading: empty for an occupied point, occupied (`x`, or `r` with colour sensing) for an empty one.
   */
  bounce(square: Square, ms: number, reading?: string): Result<void, SimulatorError> {
    const bad = checkSquare(square);
    if (bad) return err(bad);
    const flipped = reading ?? (this.board[square] ? '.' : this.sensing === 'occupancy' ? 'x' : 'r');
    this.overrideFor(square, flipped, 0, ms);
    return ok(undefined);
  }

  /**
   * Slides the piece on `from` along its rank or file to `to` (empty), as a chariot or cannon is
   * slid: each point passed reads occupied for `stepMs`, the next one shows before the last clears
   * (`overlapMs`). The piece stands on `to` at the end; the promise resolves then.
   */
  slide(
    from: Square,
    to: Square,
    options: { stepMs?: number; overlapMs?: number } = {},
  ): Result<Promise<void>, SimulatorError> {
    for (const sq of [from, to]) {
      const bad = checkSquare(sq);
      if (bad) return err(bad);
    }
    const piece = this.board[from];
    if (!piece) return fail('empty_square', `nothing to slide on ${makeSquareName(from)}`);
    if (this.board[to]) return fail('occupied', `${makeSquareName(to)} is not empty`);
    const df = Math.sign(squareFile(to) - squareFile(from));
    const dr = Math.sign(squareRank(to) - squareRank(from));
    if (from === to || (df !== 0 && dr !== 0)) {
      return fail('not_a_line', `${makeSquareName(from)}→${makeSquareName(to)} is not along a rank or file`);
    }
    const stepMs = options.stepMs ?? 60;
    const overlapMs = Math.min(options.overlapMs ?? 10, stepMs);
    const path: Square[] = [];
    for (let sq = from + df + dr * 9; sq !== to; sq += df + dr * 9) path.push(sq);
    const reading = cellsOf([piece], this.sensing)[0]!;
    // The piece leaves its point as the next one starts reading it.
    this.batch(() => {
      this.remove(from);
      path.forEach((sq, i) => {
        this.overrideFor(sq, reading, i * stepMs, stepMs + overlapMs);
      });
    });
    return ok(
      new Promise<void>((resolve) => {
        this.later(path.length * stepMs, () => {
          if (!this.board[to]) this.place(to, piece);
          resolve();
        });
      }),
    );
  }

  // --- Terminal -------------------------------------------------------------------------------

  /** The board as a 9×10 grid, Red at the bottom, with the pieces in hand below. */
  render(options: RenderOptions = {}): string {
    const grid = renderBoard(this.board, options);
    if (this.held.length === 0) return grid;
    const names = this.held.map((p) =>
      options.style === 'chinese' ? CHINESE[p.color][p.role] : makePieceLetter(p),
    );
    return `${grid}\nin hand: ${names.join(' ')}`;
  }

  // --- Internals ------------------------------------------------------------------------------

  private overrideFor(square: Square, reading: string, afterMs: number, forMs: number): void {
    const on = () => {
      this.overrides.set(square, reading);
      this.changed();
      this.later(forMs, () => {
        if (this.overrides.get(square) === reading) this.overrides.delete(square);
        this.changed();
      });
    };
    if (afterMs <= 0) on();
    else this.later(afterMs, on);
  }

  private later(ms: number, fn: () => void): void {
    const cancel = this.clock.setTimer(() => {
      this.noiseTimers.delete(cancel);
      fn();
    }, ms);
    this.noiseTimers.add(cancel);
  }

  private changed(): void {
    if (this.batchDepth > 0 || !this.running) return;
    if (this.cells !== this.lastEmitted) this.emitSnapshot();
  }

  private emitSnapshot(): void {
    const cells = this.cells;
    this.lastEmitted = cells;
    this.snapshots++;
    this.send({ type: 'snapshot', t: this.clock.now(), cells });
  }

  private scheduleHeartbeat(): void {
    if (this.heartbeatMs <= 0) return;
    this.cancelHeartbeat = this.clock.setTimer(() => {
      if (!this.running) return;
      this.emitSnapshot();
      this.scheduleHeartbeat();
    }, this.heartbeatMs);
  }

  private send(event: SensorEvent): void {
    this.listeners.emit(event);
  }
}

// ---------------------------------------------------------------------------------------------
// The simulated hand

/**
 * A hand playing moves on a simulated board: lift, put a captured piece aside, set down. Each step
 * is scheduled only once the one before it has happened, so however late the event loop runs the
 * timers, the readings of one move come in order and each holds at least `gapMs` on the clock (a
 * target that never reads empty would leave a capture pending for ever).
 */
export class SimulatedHand {
  private cancel: (() => void) | undefined;
  private done: ((r: Result<void, SimulatorError>) => void) | undefined;
  /** When its last step happened: the next move's lift holds off `gapMs` from it, as a player's does. */
  private lastStepAt = Number.NEGATIVE_INFINITY;

  constructor(
    private readonly sim: BoardSimulator,
    private readonly clock: Clock,
    /** Lift to set-down, when the event loop is on time. */
    private readonly paceMs = 300,
    /** The least time any one reading of the move holds (above the reader's bounce window). */
    private readonly gapMs = 60,
  ) {}

  get busy(): boolean {
    return this.done !== undefined;
  }

  /** Plays `from` → `to`; resolves once the piece is set down (or with the step that failed). */
  play(from: Square, to: Square): Promise<Result<void, SimulatorError>> {
    if (this.done) return Promise.resolve(fail('occupied', 'the hand is still moving a piece'));
    const capture = this.sim.pieceAt(to) !== undefined;
    const steps: (() => Result<unknown, SimulatorError>)[] = [() => this.sim.lift(from)];
    if (capture) steps.push(() => this.sim.remove(to));
    steps.push(() => this.sim.place(to));
    const gap = Math.max(this.gapMs, Math.round(this.paceMs / (steps.length - 1)));
    return new Promise((resolve) => {
      this.done = resolve;
      const run = (i: number): void => {
        this.cancel = undefined;
        const r = steps[i]!();
        this.lastStepAt = this.clock.now();
        if (!r.ok || i === steps.length - 1) this.finish(r.ok ? ok(undefined) : r);
        else this.cancel = this.clock.setTimer(() => run(i + 1), gap);
      };
      // (A reply is lifted no sooner than that after the last landing: sooner, a piece leaving its
      // point far from a landing reads as a sensor dying there.)
      const wait = this.lastStepAt + this.gapMs - this.clock.now();
      if (wait > 0) this.cancel = this.clock.setTimer(() => run(0), wait);
      else run(0);
    });
  }

  /** Stops between steps (a piece may stay in the hand); the move in progress resolves as failed. */
  stop(reason = 'the hand was stopped'): void {
    this.cancel?.();
    this.cancel = undefined;
    this.finish(fail('interrupted', reason));
  }

  private finish(r: Result<void, SimulatorError>): void {
    const done = this.done;
    this.done = undefined;
    done?.(r);
  }
}

// ---------------------------------------------------------------------------------------------
// Rendering

export interface RenderOptions {
  /** `letters` (FEN letters, Red upper case; default) or `chinese` (帥仕相傌俥炮兵 / 將士象馬車砲卒). */
  readonly style?: 'letters' | 'chinese';
  /** Colour Red's pieces red and Black's bold with ANSI escapes (for a terminal). */
  readonly ansi?: boolean;
}

export const CHINESE: Record<Color, Record<Role, string>> = {
  red: { king: '帥', advisor: '仕', elephant: '相', horse: '傌', chariot: '俥', cannon: '炮', pawn: '兵' },
  black: { king: '將', advisor: '士', elephant: '象', horse: '馬', chariot: '車', cannon: '砲', pawn: '卒' },
};

const describePiece = (p: Piece): string => `a ${p.color} ${p.role}`;

/**
 * A board as text, rank 9 at the top and Red's rank 0 at the bottom, rank digits on the left and
 * files a–i below. Letters: one character a point (`.` empty). Chinese: full-width characters (two
 * terminal columns), `＋` for an empty point.
 */
export function renderBoard(board: readonly (Piece | undefined)[], options: RenderOptions = {}): string {
  const chinese = options.style === 'chinese';
  const paint = (p: Piece, s: string): string =>
    !options.ansi ? s : p.color === 'red' ? `\x1b[31m${s}\x1b[0m` : `\x1b[1m${s}\x1b[0m`;
  const rows: string[] = [];
  for (let rank = 9; rank >= 0; rank--) {
    const cells: string[] = [];
    for (let file = 0; file < 9; file++) {
      const p = board[rank * 9 + file];
      if (!p) cells.push(chinese ? '＋' : '.');
      else cells.push(paint(p, chinese ? CHINESE[p.color][p.role] : makePieceLetter(p)));
    }
    rows.push(`${rank} ${cells.join(' ')}`);
  }
  rows.push(chinese ? '  a  b  c  d  e  f  g  h  i' : '  a b c d e f g h i');
  return rows.join('\n');
}

/** Sensor readings (`.`, `x`, `r`, `b`) as the same grid. */
export function renderCells(cells: Cells): string {
  const rows: string[] = [];
  for (let rank = 9; rank >= 0; rank--)
    rows.push(
      `${rank} ${cells
        .slice(rank * 9, rank * 9 + 9)
        .split('')
        .join(' ')}`,
    );
  rows.push('  a b c d e f g h i');
  return rows.join('\n');
}
