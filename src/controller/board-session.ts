/**
 * One board, from its sensors to the bus: SensorSource → Tracker (the move reader, on a Game made
 * from the configuration) → the game's journal → bus. The order is the point: a move is appended
 * to the journal (written and fsynced) before anything hears of it, so no announced move is ever
 * missing from the record (issue 4). Retractions and the outcome are journaled the same way, and
 * every sensor frame goes into the journal's sensor lines so the finished game gets its PGN and its
 * sensor log beside the journal.
 *
 * On start an unfinished game of this board in the archive is resumed: the tracker waits in its
 * setup state for the board to show the game's position, then play goes on. When a game ends and
 * the board is set back to the start position, the next game starts (with a new journal).
 */

import type { BoardConfig, GameConfig, TrackerConfig } from '../config/schema.js';
import { Game, type GameOptions } from '../game/game.js';
import type { IllegalMovePolicy } from '../game/policy.js';
import type { ClockView } from '../mqtt/contract.js';
import { makeChinese, makeWxf, parseMoveAny } from '../notation/index.js';
import { finishFromJournal } from '../record/archive.js';
import { findUnfinished, GameJournal, newGameId } from '../record/journal.js';
import { writePgn } from '../record/pgn.js';
import { INITIAL_FEN } from '../rules/fen.js';
import { makeIccs, parseIccs } from '../rules/iccs.js';
import { Position } from '../rules/position.js';
import { type CodedError, type Color, err, type Move, ok, opposite, type Result } from '../rules/types.js';
import { type Clock, systemClock } from '../sensors/clock.js';
import { SensorLogWriter } from '../sensors/sensor-log.js';
import { BoardSimulator } from '../sensors/simulator.js';
import type { Cells } from '../sensors/snapshot.js';
import type { SensorEvent, SensorSource, SourceHealth } from '../sensors/source.js';
import type { TrackerEmitted, TrackerOptions } from '../tracker/machine.js';
import { expectedCells } from '../tracker/reader.js';
import { Tracker } from '../tracker/tracker.js';
import type { Bus, GameView, Logger, MoveInfo } from './bus.js';
import { silentLogger } from './bus.js';
import { suggestMove } from './hint.js';

export type SessionErrorCode =
  | 'bad_position'
  | 'no_game'
  | 'game'
  | 'not_simulated'
  | 'bad_move'
  | 'record_failed'
  | 'busy';
export type SessionError = CodedError<SessionErrorCode>;

const fail = (code: SessionErrorCode, message: string): { ok: false; error: SessionError } =>
  err({ code, message });

export interface BoardSessionOptions {
  readonly board: BoardConfig;
  readonly source: SensorSource;
  readonly game: GameConfig;
  readonly tracker: TrackerConfig;
  readonly archiveDir: string;
  readonly bus: Bus;
  /** The clock of the source (the same one: event times and timers agree). Default: the system's. */
  readonly clock?: Clock;
  readonly logger?: Logger;
  /** PGN tags of every game (Event, Site…); the board id is added as `Board`. */
  readonly meta?: Readonly<Record<string, string>>;
  /** Waits between attempts to start a source that failed: from initialMs, doubling up to maxMs. */
  readonly retry?: { readonly initialMs: number; readonly maxMs: number };
  /** Pace of a simulated hand (`simulate`): lift → set down. */
  readonly handMs?: number;
  /** Wall clock (ISO times of journals; the age of a resumed game). */
  readonly wallNow?: () => number;
}

/** Setup: waiting for the board to show the game's position; playing; over (archived). */
export type SessionPhase = 'setup' | 'playing' | 'over';

const PENDING_LOG_LIMIT = 20_000;

export class BoardSession {
  readonly id: string;
  readonly source: SensorSource;
  private readonly bus: Bus;
  private readonly clock: Clock;
  private readonly logger: Logger;
  private readonly wallNow: () => number;
  /** Owned by the session and read live by the tracker and the game, so options change at once. */
  private readonly trackerOptions: { -readonly [K in keyof TrackerOptions]: TrackerOptions[K] };
  private readonly gameOptions: { -readonly [K in keyof GameOptions]: GameOptions[K] };

  private game!: Game;
  private gameId = '';
  private tracker: Tracker | undefined;
  private journal: GameJournal | undefined;
  private phase: SessionPhase = 'setup';
  /** Source time of game time 0. */
  private origin = 0;
  private logWriter!: SensorLogWriter;
  /** Sensor lines of a game not yet started (no journal yet). */
  private pendingLog: string[] = [];
  private lastLoggedCells: Cells | undefined;
  private lastCells: Cells | undefined;
  /** After a game ended: the next one is read only once the board has shown something else. */
  private awaitingChange = false;
  private resumed = false;
  /** An ending not by the board (abandoned): the view shows it. */
  private closedAs: { result: string; reason: string } | undefined;
  /** The finished game, shown until the next one starts. */
  private finalView: GameView | undefined;
  private running = false;
  private unsubscribeSource: (() => void) | undefined;
  private cancelRetry: (() => void) | undefined;
  private cancelTick: (() => void) | undefined;
  private readonly handTimers = new Set<() => void>();
  private retryMs: number;

  constructor(private readonly options: BoardSessionOptions) {
    this.id = options.board.id;
    this.source = options.source;
    this.bus = options.bus;
    this.clock = options.clock ?? systemClock;
    this.logger = options.logger ?? silentLogger;
    this.wallNow = options.wallNow ?? Date.now;
    this.retryMs = options.retry?.initialMs ?? 1000;
    const g = options.game;
    const t = options.tracker;
    this.trackerOptions = {
      sensing: options.source.sensing,
      bounceMs: t.bounceMs,
      settleMs: t.settleMs,
      outOfSyncMs: t.outOfSyncMs,
      takebacks: g.takebacks,
      foulAfterMs: g.illegalMovePolicy === 'tournament' ? g.foulCorrectionMs : 0,
    };
    this.gameOptions = {
      moveLimit: g.moveLimitPlies,
      policy: policyOf(g.illegalMovePolicy, g.foulCorrectionMs),
      playOn: true,
      ...(g.clock
        ? {
            clock: {
              periods: g.clock.periods.map((p) => ({
                ...(p.moves !== undefined ? { moves: p.moves } : {}),
                ms: Math.round(p.minutes * 60_000),
                incrementMs: Math.round(p.incrementSeconds * 1000),
              })),
              repeatLast: g.clock.repeatLast,
            },
          }
        : {}),
    };
  }

  // --- lifecycle ------------------------------------------------------------------------------

  async start(): Promise<void> {
    if (this.running) return;
    this.running = true;
    if (!this.resumeUnfinished()) {
      const started = this.prepareGame(undefined, false);
      if (!started.ok) throw new Error(started.error.message);
    }
    this.unsubscribeSource = this.source.subscribe((e) => this.onSensor(e));
    this.scheduleTick();
    await this.startSource();
  }

  /** Stops reading; an unfinished game stays in its journal, to be resumed. */
  async stop(): Promise<void> {
    if (!this.running) return;
    this.running = false;
    this.cancelRetry?.();
    this.cancelTick?.();
    for (const cancel of this.handTimers) cancel();
    this.handTimers.clear();
    this.tracker?.stop();
    this.tracker = undefined;
    try {
      await this.source.stop();
    } catch (e) {
      this.logger.warn(`board ${this.id}: stopping the source: ${(e as Error).message}`);
    }
    this.unsubscribeSource?.();
    this.unsubscribeSource = undefined;
    this.journal?.close();
    this.journal = undefined;
  }

  // --- reading ------------------------------------------------------------------------------------

  get currentPhase(): SessionPhase {
    return this.phase;
  }

  get journalPath(): string | undefined {
    return this.journal?.path;
  }

  /** The simulated board, when this board is one. */
  get simulator(): BoardSimulator | undefined {
    return this.source instanceof BoardSimulator ? this.source : undefined;
  }

  health(): SourceHealth {
    return this.source.health();
  }

  view(): GameView {
    if (this.phase === 'over' && this.finalView) return this.finalView;
    const game = this.game;
    const outcome = game.outcome;
    const moves = game.moves;
    const status = this.phase === 'over' || outcome ? 'over' : this.phase;
    const result = outcome?.result ?? this.closedAs?.result ?? '*';
    const clock = this.clockView();
    return {
      board: this.id,
      game: this.gameId,
      startFen: game.startFen,
      fen: game.fen,
      ply: moves.length,
      moves: moves.map((m) => m.iccs),
      lastMove: moves.at(-1)?.iccs ?? null,
      turn: game.turn,
      check: game.position.isCheck(),
      status,
      result,
      reason: outcome?.reason ?? this.closedAs?.reason ?? null,
      ...(outcome?.detail ? { detail: outcome.detail } : {}),
      final: !game.canPlayOn,
      ...(clock ? { clock } : {}),
      pgn: this.livePgn(result),
    };
  }

  // --- requests ---------------------------------------------------------------------------------

  /** Ends the game in progress (`*`, abandoned) and waits for the board to show the new one. */
  newGame(fen?: string): Result<GameView, SessionError> {
    const check = Game.start(fen, this.gameOptions);
    if (!check.ok) return fail('bad_position', check.error.message);
    if (this.phase !== 'over') {
      if (this.journal && !this.game.isOver) this.close({ result: '*', reason: 'abandoned' });
      else if (this.journal && this.game.isOver) this.close(undefined);
    }
    this.retireTracker();
    const prepared = this.prepareGame(fen, false);
    if (!prepared.ok) return prepared;
    return ok(this.view());
  }

  resign(side?: Color): Result<GameView, SessionError> {
    if (this.phase !== 'playing' || this.game.isOver) return fail('no_game', 'no game in progress');
    const r = this.game.resign(side ?? this.game.turn, this.now());
    if (!r.ok) return fail('game', r.error.message);
    return ok(this.ended());
  }

  draw(action: 'offer' | 'accept' | 'decline', side?: Color): Result<GameView, SessionError> {
    if (this.phase !== 'playing' || this.game.isOver) return fail('no_game', 'no game in progress');
    const offerer = this.game.pendingDrawOffer;
    if (action === 'offer') {
      const r = this.game.offerDraw(side ?? this.game.turn, this.now());
      if (!r.ok) return fail('game', r.error.message);
      return ok(this.view());
    }
    const by = side ?? (offerer ? opposite(offerer) : this.game.turn);
    if (action === 'decline') {
      const r = this.game.declineDraw(by);
      return r.ok ? ok(this.view()) : fail('game', r.error.message);
    }
    const r = this.game.acceptDraw(by, this.now());
    if (!r.ok) return fail('game', r.error.message);
    return ok(this.ended());
  }

  setOptions(o: { takebacks?: boolean; illegalMovePolicy?: 'casual' | 'tournament' }): {
    takebacks: boolean;
    illegalMovePolicy: 'casual' | 'tournament';
  } {
    if (o.takebacks !== undefined) this.trackerOptions.takebacks = o.takebacks;
    if (o.illegalMovePolicy !== undefined) {
      const ms = this.options.game.foulCorrectionMs;
      this.gameOptions.policy = policyOf(o.illegalMovePolicy, ms);
      this.trackerOptions.foulAfterMs = o.illegalMovePolicy === 'tournament' ? ms : 0;
    }
    return {
      takebacks: this.trackerOptions.takebacks,
      illegalMovePolicy: this.gameOptions.policy?.kind ?? 'casual',
    };
  }

  /** A suggested move for the side to move, announced on the bus. */
  hint(): Result<{ iccs: string; wxf: string; zh: string; score: number; ply: number }, SessionError> {
    if (this.game.isOver) return fail('no_game', 'the game is over');
    const pos = this.game.position;
    const h = suggestMove(pos);
    if (!h) return fail('no_game', 'the side to move has no legal move');
    const hint = {
      iccs: h.iccs,
      wxf: makeWxf(pos, h.move) ?? h.iccs,
      zh: makeChinese(pos, h.move) ?? h.iccs,
      score: h.score,
      ply: this.game.moves.length + 1,
    };
    this.bus.emit('game.hint', { board: this.id, game: this.gameId, ...hint });
    return ok(hint);
  }

  /**
   * Simulated boards: plays a move (any notation) as a hand does — lift, put a captured piece
   * aside, set down — over `handMs`; the move itself arrives through the sensors like any other.
   */
  simulate(request: {
    move?: string;
    reset?: boolean;
    fen?: string;
  }): Result<{ iccs?: string }, SessionError> {
    const sim = this.simulator;
    if (!sim) return fail('not_simulated', `board ${this.id} is not a simulated board`);
    if (request.reset || request.fen !== undefined) {
      const r = sim.setPosition(request.fen ?? INITIAL_FEN);
      return r.ok ? ok({}) : fail('bad_position', r.error.message);
    }
    if (this.handTimers.size > 0) return fail('busy', 'the simulated hand is still moving a piece');
    const pos = this.game.position;
    const parsed = parseMoveAny(pos, request.move ?? '');
    if (!parsed.ok) return fail('bad_move', parsed.error.message);
    const move = parsed.value;
    const lifted = sim.lift(move.from);
    if (!lifted.ok) return fail('bad_move', `the board does not show the game: ${lifted.error.message}`);
    const hand = this.options.handMs ?? 300;
    const later = (ms: number, fn: () => void): void => {
      const cancel = this.clock.setTimer(() => {
        this.handTimers.delete(cancel);
        fn();
      }, ms);
      this.handTimers.add(cancel);
    };
    if (sim.pieceAt(move.to)) later(Math.round(hand / 2), () => sim.remove(move.to));
    later(hand, () => {
      if (sim.pieceAt(move.to)) sim.remove(move.to);
      sim.place(move.to);
    });
    return ok({ iccs: makeIccs(move) });
  }

  // --- internals: games -------------------------------------------------------------------------

  private now(): number {
    return Math.max(0, Math.round(this.clock.now() - this.origin));
  }

  /** The latest unfinished game of this board in the archive, resumed. */
  private resumeUnfinished(): boolean {
    const dir = this.options.archiveDir;
    const mine = findUnfinished(dir)
      .filter((s) => s.start.meta.Board === this.id)
      .sort((a, b) => a.start.id.localeCompare(b.start.id));
    const state = mine.at(-1);
    if (!state) return false;
    const resumed = GameJournal.resume(state.path);
    if (!resumed.ok) {
      this.logger.error(`board ${this.id}: cannot resume ${state.path}: ${resumed.error.message}`);
      return false;
    }
    const { journal, state: read } = resumed.value;
    for (const w of read.warnings) this.logger.warn(`board ${this.id}: ${w}`);
    const moves: { move: Move; t: number }[] = [];
    for (const m of read.moves) {
      const move = parseIccs(m.iccs);
      if (!move.ok) break;
      moves.push({ move: move.value, t: m.t });
    }
    const game = Game.fromRecord({ fen: read.start.fen, moves }, this.gameOptions);
    if (!game.ok) {
      this.logger.error(
        `board ${this.id}: ${state.path} does not replay (${game.error.message}); a new game starts`,
      );
      journal.close();
      return false;
    }
    this.game = game.value;
    this.gameId = read.start.id;
    this.journal = journal;
    this.resumed = true;
    this.closedAs = undefined;
    const lastT = read.moves.at(-1)?.t ?? 0;
    const age = this.wallNow() - Date.parse(read.start.startedAt);
    this.origin = this.clock.now() - Math.max(lastT, Number.isFinite(age) ? age : 0);
    this.logWriter = new SensorLogWriter(
      { sensing: this.source.sensing, fen: read.start.fen, board: this.id },
      { origin: this.origin },
    );
    if (read.sensorLog.length === 0) journal.appendSensorLines([this.logWriter.headerLine()]);
    this.lastLoggedCells = undefined;
    this.logger.info(`board ${this.id}: resuming game ${this.gameId} after ply ${moves.length}`);
    if (this.game.isOver && !this.game.canPlayOn) {
      // It ended with its last journaled move, before the end record: finish it now.
      this.phase = 'playing';
      this.ended();
      return true;
    }
    this.phase = 'setup';
    this.startTracker();
    this.bus.emit('game.view', { board: this.id, view: this.view() });
    return true;
  }

  /** A new game waiting for the board to show its position; its journal starts when it does. */
  private prepareGame(fen: string | undefined, afterEnd: boolean): Result<void, SessionError> {
    const game = Game.start(fen, this.gameOptions);
    if (!game.ok) return fail('bad_position', game.error.message);
    this.game = game.value;
    this.gameId = newGameId(new Date(this.wallNow()));
    this.journal = undefined;
    this.resumed = false;
    this.closedAs = undefined;
    this.phase = afterEnd ? 'over' : 'setup';
    if (!afterEnd) this.finalView = undefined;
    this.origin = this.clock.now();
    this.logWriter = new SensorLogWriter(
      { sensing: this.source.sensing, fen: this.game.startFen, board: this.id },
      { origin: this.origin },
    );
    this.pendingLog = [this.logWriter.headerLine()];
    this.lastLoggedCells = undefined;
    // A game that ended on a board showing the new game's position (a resignation before any
    // move) starts again only once the board has shown something else.
    this.awaitingChange =
      afterEnd && this.lastCells === expectedCells(this.game.position, this.source.sensing);
    this.startTracker();
    if (!afterEnd) this.bus.emit('game.view', { board: this.id, view: this.view() });
    if (this.lastCells !== undefined && !this.awaitingChange && this.running) {
      // The board as it stands now is the first thing the new game's reader sees.
      this.onSensor({ type: 'snapshot', t: this.clock.now(), cells: this.lastCells });
    }
    return ok(undefined);
  }

  private startTracker(): void {
    const relative: Clock = {
      now: () => this.clock.now() - this.origin,
      setTimer: (fn, ms) => this.clock.setTimer(fn, ms),
    };
    const tracker = new Tracker(this.game, this.trackerOptions, relative);
    tracker.subscribe((e) => {
      if (this.tracker === tracker) this.onTracker(e);
    });
    this.tracker = tracker;
    tracker.start();
  }

  private onSensor(e: SensorEvent): void {
    // The link going down as the session stops is still announced.
    if (!this.running && e.type !== 'link') return;
    if (e.type === 'link') {
      this.bus.emit('board.availability', {
        board: this.id,
        online: e.up,
        ...(e.reason ? { reason: e.reason } : {}),
      });
      this.log(e);
      return;
    }
    if (e.type === 'snapshot') {
      const before = this.lastCells;
      this.lastCells = e.cells;
      if (this.awaitingChange) {
        if (e.cells === expectedCells(this.game.position, this.source.sensing)) return;
        this.awaitingChange = false;
      }
      // A game ended by an ending the players may play past is closed once the board is set up
      // again (a change: a repetition may end on the start position itself and be played past).
      if (
        e.cells !== before &&
        this.phase === 'playing' &&
        this.game.isOver &&
        this.game.moves.length > 0 &&
        e.cells === expectedCells(Position.default(), this.source.sensing)
      ) {
        this.close(undefined);
        this.retireTracker();
        this.prepareGame(undefined, false);
        return;
      }
      if (e.cells !== this.lastLoggedCells) {
        this.lastLoggedCells = e.cells;
        this.log(e);
      }
      this.bus.emit('board.frame', { board: this.id, t: e.t });
    } else this.log(e);
    this.tracker?.send({ ...e, t: e.t - this.origin } as SensorEvent);
  }

  private log(e: SensorEvent): void {
    let line: string;
    try {
      line = this.logWriter.line(e);
    } catch (error) {
      this.logger.warn(`board ${this.id}: a reading not fit for the sensor log: ${(error as Error).message}`);
      return;
    }
    if (this.journal) {
      const r = this.journal.appendSensorLines([line]);
      if (!r.ok) this.logger.warn(`board ${this.id}: ${r.error.message}`);
    } else if (this.pendingLog.length < PENDING_LOG_LIMIT) this.pendingLog.push(line);
  }

  private onTracker(e: TrackerEmitted): void {
    const board = this.id;
    switch (e.type) {
      case 'gameStart': {
        if (!this.journal) {
          const created = GameJournal.create(this.options.archiveDir, {
            id: this.gameId,
            fen: this.game.startFen,
            meta: this.meta(),
            now: new Date(this.wallNow() - this.now()),
          });
          if (!created.ok) {
            this.logger.error(`board ${board}: ${created.error.message}`);
            this.recordFailed(created.error.message, e.t);
            return;
          }
          this.journal = created.value;
          this.journal.appendSensorLines(this.pendingLog);
          this.pendingLog = [];
        }
        this.phase = 'playing';
        this.finalView = undefined;
        this.logger.info(
          `board ${board}: game ${this.gameId} ${this.resumed ? 'resumed' : 'started'} at ply ${this.game.moves.length}`,
        );
        this.bus.emit('game.view', { board, view: this.view() });
        return;
      }
      case 'move': {
        const played = this.game.moves[e.ply - 1];
        if (!played) return;
        const clock = this.game.clock ? this.game.clock.remaining(played.color, e.t) : undefined;
        const t = Math.max(0, Math.round(e.t));
        const appended = this.journal?.appendMove({
          ply: e.ply,
          iccs: e.iccs,
          t,
          ...(clock !== undefined ? { clock } : {}),
        });
        if (!appended?.ok) {
          // Not durable, so not announced: viewers are told the record failed instead.
          this.recordFailed(appended ? appended.error.message : 'no journal for this game', e.t);
          return;
        }
        const before = this.positionBefore(e.ply);
        const move: MoveInfo = {
          ply: e.ply,
          iccs: e.iccs,
          wxf: makeWxf(before, e.move) ?? e.iccs,
          zh: makeChinese(before, e.move) ?? e.iccs,
          color: played.color,
          check: played.check,
          capture: played.captured !== undefined,
          fen: played.fen,
          t,
        };
        this.bus.emit('game.move', { board, move, view: this.view() });
        return;
      }
      case 'retract': {
        const r = this.journal?.appendRetract({ ply: e.ply, t: Math.max(0, Math.round(e.t)) });
        if (!r?.ok) {
          this.recordFailed(r ? r.error.message : 'no journal for this game', e.t);
          return;
        }
        this.bus.emit('game.retract', { board, ply: e.ply, t: e.t, view: this.view() });
        return;
      }
      case 'alert':
        this.bus.emit('tracker.alert', { board, alert: e.alert, t: e.t });
        return;
      case 'alertCleared':
        this.bus.emit('tracker.alertCleared', { board, kind: e.kind, t: e.t });
        return;
      case 'state':
        this.bus.emit('tracker.state', { board, state: e.state, detail: e.detail, t: e.t });
        return;
      case 'gameOver':
        if (this.phase === 'playing') this.ended();
        return;
    }
  }

  private recordFailed(message: string, t: number): void {
    this.bus.emit('tracker.alert', {
      board: this.id,
      alert: { kind: 'move_rejected', message: `the game record could not be written: ${message}` },
      t,
    });
  }

  /**
   * The game has an outcome. An ending the players may still play past (repetition, move limit…)
   * is announced as not final and the board is still read; any other is journaled and archived,
   * and the next game waits for the board to be set up.
   */
  private ended(): GameView {
    if (this.game.canPlayOn) {
      const view = this.view();
      this.bus.emit('game.over', { board: this.id, view });
      return view;
    }
    const view = this.close(undefined);
    this.bus.emit('tracker.state', { board: this.id, state: 'game_over', detail: {}, t: this.now() });
    this.retireTracker();
    this.prepareGame(undefined, true);
    return view;
  }

  /**
   * Detaches the reader (its late events are ignored) and stops it after the current event: the
   * game may end inside one of its own transitions.
   */
  private retireTracker(): void {
    const old = this.tracker;
    this.tracker = undefined;
    if (old) queueMicrotask(() => old.stop());
  }

  /** Journals the end (the game's outcome, or `closedAs`), archives the game, announces it. */
  private close(closedAs: { result: '*'; reason: string } | undefined): GameView {
    const outcome = this.game.outcome;
    const t = this.now();
    if (closedAs) this.closedAs = closedAs;
    const journal = this.journal;
    if (journal) {
      const ended = journal.end({
        result: closedAs ? '*' : (outcome?.result ?? '*'),
        reason: closedAs?.reason ?? outcome?.reason ?? null,
        t,
      });
      if (!ended.ok) this.logger.error(`board ${this.id}: ${ended.error.message}`);
      else {
        const archived = finishFromJournal(journal);
        if (archived.ok)
          this.logger.info(`board ${this.id}: game ${this.gameId} archived in ${archived.value.pgn}`);
        else this.logger.error(`board ${this.id}: ${archived.error.message}`);
      }
      journal.close();
      this.journal = undefined;
    }
    this.phase = 'over';
    this.finalView = undefined;
    const view = this.view();
    this.finalView = view;
    this.bus.emit('game.over', { board: this.id, view });
    return view;
  }

  /** The position the move of `ply` was played from (for its WXF and Chinese names). */
  private positionBefore(ply: number): Position {
    const pos = this.game.startPosition;
    for (const m of this.game.moves.slice(0, ply - 1)) pos.play(m.move);
    return pos;
  }

  private meta(): Record<string, string> {
    return { Event: 'xqboard', Site: this.id, Red: '?', Black: '?', ...this.options.meta, Board: this.id };
  }

  private livePgn(result: string): string {
    const { Board: _, ...tags } = this.meta();
    return writePgn({
      tags: { ...tags, Date: new Date(this.wallNow()).toISOString().slice(0, 10).replace(/-/g, '.') },
      fen: this.game.startFen,
      moves: this.game.moves.map((m) => ({ move: m.move, iccs: m.iccs, clock: m.t })),
      result,
    });
  }

  private clockView(): ClockView | undefined {
    const clock = this.game.clock;
    if (!clock) return undefined;
    const t = Math.max(this.now(), this.game.moves.at(-1)?.t ?? 0);
    return {
      red: clock.remaining('red', t),
      black: clock.remaining('black', t),
      running: clock.running ?? null,
    };
  }

  /** A game with a clock ends when a flag falls, even if nobody touches the board. */
  private scheduleTick(): void {
    if (!this.gameOptions.clock) return;
    this.cancelTick = this.clock.setTimer(() => {
      if (!this.running) return;
      if (this.phase === 'playing' && !this.game.isOver) {
        const t = Math.max(this.now(), this.game.moves.at(-1)?.t ?? 0);
        if (this.game.tick(t)) this.ended();
      }
      this.scheduleTick();
    }, 250);
  }

  private async startSource(): Promise<void> {
    try {
      await this.source.start();
      this.retryMs = this.options.retry?.initialMs ?? 1000;
    } catch (e) {
      const reason = `the source did not start: ${(e as Error).message}`;
      this.logger.warn(`board ${this.id}: ${reason}; retrying in ${this.retryMs} ms`);
      this.bus.emit('board.availability', { board: this.id, online: false, reason });
      const wait = this.retryMs;
      this.retryMs = Math.min(wait * 2, this.options.retry?.maxMs ?? 30_000);
      this.cancelRetry = this.clock.setTimer(() => {
        if (this.running) void this.startSource();
      }, wait);
    }
  }
}

function policyOf(kind: 'casual' | 'tournament', correctionMs: number): IllegalMovePolicy {
  return kind === 'tournament' ? { kind: 'tournament', correctionMs, foulsToLose: 3 } : { kind: 'casual' };
}
