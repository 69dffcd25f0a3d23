/**
 * One board, from its sensors to the bus: SensorSource → the session's lifecycle (lifecycle.ts,
 * the move reader its child actor) → the game's record (recorder.ts) → bus. A move is on disk
 * before anything hears of it. An unfinished game is resumed (a simulated board is set to it).
 * The requests are methods here; requests.ts gives every front end the same access to them.
 */
import { type Actor, createActor } from 'xstate';
import type { BoardConfig, EngineConfig, GameConfig, TrackerConfig } from '../config/schema.js';
import { configSchema } from '../config/schema.js';
import { Game, type GameOptions } from '../game/game.js';
import type { BoardMeta } from '../mqtt/contract.js';
import {
  type Color,
  type Move,
  makeSquareName,
  opposite,
  parseIccs,
  parseSquare,
  type Square,
} from '../rules/index.js';
import { SensorHealth } from '../sensors/health.js';
import { BoardSimulator, SimulatedHand } from '../sensors/simulator.js';
import type { SensorEvent, SensorSource, SourceHealth } from '../sensors/source.js';
import type { TrackerOptions } from '../tracker/machine.js';
import type { Tracker } from '../tracker/tracker.js';
import { type Clock, systemClock } from '../util/clock.js';
import { type Logger, silentLogger } from '../util/log.js';
import { ok, type Result } from '../util/result.js';
import type { Bus, GameView, SessionAlert } from './bus.js';
import { EnginePlay, type HintAnswer, type Opponent } from './engine-play.js';
import { EngineService } from './hint.js';
import { type LifecycleEvent, sessionMachine } from './lifecycle.js';
import { gameOptionsOf, policyOf, trackerOptionsOf } from './options.js';
import { SessionCore } from './session-core.js';
import {
  fail,
  type SessionError,
  type SessionErrorCode,
  type SimulateAnswer,
  SimulateQueue,
  type SimulateRequest,
} from './simulate.js';
import { SourceSupervisor } from './supervisor.js';

export type { SessionError, SessionErrorCode } from './simulate.js';

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
  /** Event metadata (players, round…) of the board; `setMeta` changes it. */
  readonly boardMeta?: BoardMeta;
  /** Waits between attempts to start a source that failed: from initialMs, doubling up to maxMs. */
  readonly retry?: { readonly initialMs: number; readonly maxMs: number };
  /** Pace of a simulated hand (`simulate`): lift → set down. */
  readonly handMs?: number;
  /** Wall clock (ISO times of journals; the age of a resumed game). */
  readonly wallNow?: () => number;
  /** The engine, shared by the boards of a controller (default: one of the session's own). */
  readonly engine?: EngineService;
  /** Hints, the hint gesture, play against the engine (default: the configuration's defaults). */
  readonly engineConfig?: EngineConfig;
}

/** Setup: waiting for the board to show the game's position; playing; over (archived). */
export type SessionPhase = 'setup' | 'playing' | 'over';

/** A board's health, as `bridge/health` answers it. */
export interface BoardHealth extends SourceHealth {
  readonly sensors: {
    readonly snapshots: number;
    readonly suspectedDead: readonly { readonly square: string; readonly reads: 'empty' | 'occupied' }[];
    readonly flickering: readonly { readonly square: string; readonly flickers: number }[];
  };
}

export type { HintAnswer, Opponent } from './engine-play.js';

export class BoardSession {
  readonly id: string;
  readonly source: SensorSource;
  private readonly bus: Bus;
  private readonly clock: Clock;
  private readonly logger: Logger;
  private readonly trackerOptions: { -readonly [K in keyof TrackerOptions]: TrackerOptions[K] };
  private readonly gameOptions: { -readonly [K in keyof GameOptions]: GameOptions[K] };
  private readonly core: SessionCore;
  private readonly supervisor: SourceSupervisor;
  private readonly queue: SimulateQueue | undefined;
  private readonly engine: EngineService;
  private readonly ownEngine: boolean;
  private readonly play: EnginePlay;
  private readonly engineConfig: EngineConfig;
  /** When each clock button was last pressed (the hint gesture). */
  private readonly pressed: Record<Color, number> = {
    red: Number.NEGATIVE_INFINITY,
    black: Number.NEGATIVE_INFINITY,
  };
  private actor: Actor<typeof sessionMachine> | undefined;
  private unsubscribeSource: (() => void) | undefined;
  private readonly sensorHealth = new SensorHealth();
  private cancelTick: (() => void) | undefined;
  private offMoves: (() => void) | undefined;

  constructor(private readonly options: BoardSessionOptions) {
    this.id = options.board.id;
    this.source = options.source;
    this.bus = options.bus;
    this.clock = options.clock ?? systemClock;
    // Every line of this board carries its id (`board` in the JSON, the prefix on a terminal).
    this.logger = (options.logger ?? silentLogger).child({ board: options.board.id });
    this.engineConfig = options.engineConfig ?? options.engine?.config ?? configSchema.parse({}).engine;
    this.ownEngine = options.engine === undefined;
    this.engine = options.engine ?? new EngineService(this.engineConfig);
    const t = options.tracker;
    this.trackerOptions = trackerOptionsOf(options.game, t, options.source.sensing);
    this.gameOptions = gameOptionsOf(options.game);
    const sim = options.source instanceof BoardSimulator ? options.source : undefined;
    this.core = new SessionCore({
      board: this.id,
      bus: this.bus,
      clock: this.clock,
      logger: this.logger,
      wallNow: options.wallNow ?? Date.now,
      sensing: options.source.sensing,
      archiveDir: options.archiveDir,
      meta: { Event: 'xqboard', Site: this.id, Red: '?', Black: '?', ...options.meta, Board: this.id },
      ...(options.boardMeta ? { boardMeta: options.boardMeta } : {}),
      trackerOptions: this.trackerOptions,
      gameOptions: this.gameOptions,
      simulator: sim,
    });
    this.supervisor = new SourceSupervisor({
      board: this.id,
      source: this.source,
      clock: this.clock,
      logger: this.logger,
      retry: options.retry,
      onFailure: (reason) => this.bus.emit('board.availability', { board: this.id, online: false, reason }),
    });
    if (sim) {
      const hand = new SimulatedHand(sim, this.clock, options.handMs ?? 300, t.bounceMs + 25);
      const wait = t.outOfSyncMs + t.settleMs + 500;
      this.queue = new SimulateQueue(this.id, sim, hand, this.core, this.bus, this.clock, wait);
    }
    this.play = new EnginePlay(
      {
        board: this.id,
        bus: this.bus,
        core: this.core,
        logger: this.logger,
        engine: this.engine,
        hintStrength: this.engineConfig.hint,
      },
      this.engineConfig.play,
    );
    this.core.refuse = (game, move) => this.play.refuse(game, move);
    this.core.gameTags = () => this.play.tags();
  }

  // --- lifecycle ------------------------------------------------------------------------------

  async start(): Promise<void> {
    if (this.actor) return;
    const actor = createActor(sessionMachine, { input: { core: this.core } });
    this.actor = actor;
    actor.start();
    actor.send({ type: 'boot' });
    // A game against the engine goes on against it after a restart (its journal says so).
    this.play.resumeFrom(this.core.resumedMeta);
    this.play.start();
    this.offMoves = this.bus.on('game.move', (e) => {
      if (e.board === this.id) this.endIfMissed();
    });
    this.unsubscribeSource = this.source.subscribe((e) => this.onSensor(e));
    this.scheduleTick();
    await this.supervisor.start();
  }

  /** Stops reading; an unfinished game stays in its journal, to be resumed. */
  async stop(): Promise<void> {
    const actor = this.actor;
    if (!actor) return;
    this.cancelTick?.();
    this.queue?.stop();
    await this.supervisor.stop();
    this.unsubscribeSource?.();
    this.unsubscribeSource = undefined;
    actor.stop();
    this.actor = undefined;
    this.core.recorder.close();
    this.play.stop();
    this.offMoves?.();
    if (this.ownEngine) await this.engine.close();
  }

  // --- reading ------------------------------------------------------------------------------------

  get currentPhase(): SessionPhase {
    return this.core.phase;
  }

  get journalPath(): string | undefined {
    return this.core.recorder.path;
  }

  /** The simulated board, when this board is one. */
  get simulator(): BoardSimulator | undefined {
    return this.source instanceof BoardSimulator ? this.source : undefined;
  }

  /** The lifecycle's state (for tests and status pages). */
  get lifecycle(): unknown {
    return this.actor?.getSnapshot().value;
  }

  /**
   * The link's health, and the sensors': a square the move reader suspects dead (the standing
   * `sensor_fault` alert) and the squares that flicker (a loose magnet, a bad joint).
   */
  health(): BoardHealth {
    const report = this.sensorHealth.report();
    const fault = this.core.alerts.list().find((a) => a.kind === 'sensor_fault');
    return {
      ...this.source.health(),
      sensors: {
        snapshots: report.snapshots,
        suspectedDead: fault?.square ? [{ square: fault.square, reads: fault.reads ?? 'empty' }] : [],
        flickering: report.flickering.map((sq) => ({
          square: makeSquareName(sq),
          flickers: report.points[sq]!.flickers,
        })),
      },
    };
  }

  view(): GameView {
    return this.core.view();
  }

  /** New event metadata for the game under way and the next ones. */
  setMeta(meta: BoardMeta): void {
    this.core.setMeta(meta);
  }

  /** The alerts raised and not ended. */
  alerts(): SessionAlert[] {
    return this.core.alerts.list();
  }

  // --- requests ---------------------------------------------------------------------------------

  /** Ends the game in progress (`*`, abandoned); a simulated board's pieces are set up for the new one. */
  newGame(fen?: string, opponent?: Opponent | null): Result<GameView, SessionError> {
    const check = Game.start(fen, this.gameOptions);
    if (!check.ok) return fail('bad_position', check.error.message);
    if (!this.actor) return fail('stopped', 'the board is not running');
    // The side given to the engine stays with the following games (null: nobody plays the engine).
    if (opponent !== undefined) this.play.setOpponent(opponent ?? undefined);
    this.queue?.interrupt('a new game started');
    this.actor.send({ type: 'new', fen });
    this.simulator?.setPosition(this.core.game.startFen);
    return ok(this.view());
  }

  /** Resolves once the game is under way (the board shows its position), or after `ms`. */
  untilPlaying(ms: number): Promise<void> {
    return new Promise((resolve) => {
      if (this.core.phase === 'playing') return resolve();
      const off = this.bus.on('game.view', (e) => {
        if (e.board === this.id && e.view.status === 'playing') finish();
      });
      const cancel = this.clock.setTimer(() => finish(), ms);
      const finish = () => {
        off();
        cancel();
        resolve();
      };
    });
  }

  resign(side?: Color): Result<GameView, SessionError> {
    const game = this.playingGame();
    if (!game.ok) return game;
    const unsettled = this.core.unsettledMove();
    if (unsettled !== undefined) return fail('unsettled', unsettled);
    const r = game.value.resign(side ?? game.value.turn, this.core.now());
    if (!r.ok) return fail('game', r.error.message);
    this.actor?.send({ type: 'ended' });
    return ok(this.view());
  }

  draw(action: 'offer' | 'accept' | 'decline', side?: Color): Result<GameView, SessionError> {
    const found = this.playingGame();
    if (!found.ok) return found;
    const game = found.value;
    const unsettled = action === 'accept' ? this.core.unsettledMove() : undefined;
    if (unsettled !== undefined) return fail('unsettled', unsettled);
    const offerer = game.pendingDrawOffer;
    const by = side ?? (action === 'offer' || !offerer ? game.turn : opposite(offerer));
    const r =
      action === 'offer'
        ? game.offerDraw(by, this.core.now())
        : action === 'decline'
          ? game.declineDraw(by)
          : game.acceptDraw(by, this.core.now());
    if (!r.ok) return fail('game', r.error.message);
    if (action === 'accept') this.actor?.send({ type: 'ended' });
    return ok(this.view());
  }

  /**
   * The players say which candidate of the standing dead-sensor doubt was played (its index in
   * the `ambiguous` alert's `candidates`): it is recorded once its reading is at rest, and its
   * sensor named. `sensor`, the point the alert gave that candidate as dead, makes sure the
   * answer is for the doubt standing now (a doubt asked again numbers its candidates afresh).
   */
  resolve(candidate: number, sensor?: string): Result<{ line: string[]; square: string }, SessionError> {
    const game = this.playingGame();
    if (!game.ok) return game;
    let point: Square | undefined;
    if (sensor !== undefined) {
      const parsed = parseSquare(sensor);
      if (parsed === undefined) return fail('bad_candidate', `"${sensor}" is not a point (a0 to i9)`);
      point = parsed;
    }
    return this.askReader<ReturnType<Tracker['choose']>>(
      (reply) => ({ type: 'choose', command: { type: 'choose', candidate, sensor: point, reply } }),
      fail('no_doubt', 'no doubt over which sensor is dead stands on this board'),
    );
  }

  /**
   * The players put the record right: from ply `ply` on the game was `moves` (ICCS), then the
   * moves recorded after those, while they are still legal. Journaled as takebacks and moves.
   */
  correct(ply: number, moves: readonly string[]): Result<GameView, SessionError> {
    const game = this.playingGame();
    if (!game.ok) return game;
    const line: Move[] = [];
    for (const text of moves) {
      const move = parseIccs(text);
      if (!move.ok) return fail('bad_move', move.error.message);
      line.push(move.value);
    }
    const r = this.askReader<ReturnType<Tracker['correct']>>(
      (reply) => ({ type: 'correct', command: { type: 'correct', ply, line, reply } }),
      fail('no_game', 'the move reader is not running'),
    );
    return r.ok ? ok(this.view()) : r;
  }

  /**
   * A command the move reader answers while it is handed the command (its `reply`), the reader's
   * refusal as the session's; `unanswered` when no reader took it.
   */
  private askReader<R extends Result<unknown, { code: SessionErrorCode; message: string }>>(
    event: (reply: (answer: R) => void) => LifecycleEvent,
    unanswered: { ok: false; error: SessionError },
  ): R | { ok: false; error: SessionError } {
    let answer: R | undefined;
    this.actor?.send(event((r) => (answer = r)));
    if (answer === undefined) return unanswered;
    return answer.ok ? answer : fail(answer.error.code, answer.error.message);
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
    const { takebacks, foulAfterMs } = this.trackerOptions;
    this.actor?.send({ type: 'options', command: { type: 'options', takebacks, foulAfterMs } });
    return { takebacks, illegalMovePolicy: this.gameOptions.policy?.kind ?? 'casual' };
  }

  /** A suggested move for the game on the board, searched off the event loop, announced on the bus. */
  hint(): Promise<Result<HintAnswer, SessionError>> {
    return this.play.hint();
  }

  /** The side the engine plays, and the move it waits for on the board. */
  engineState(): { opponent: Opponent | undefined; expected: string | undefined; engine: string } {
    return { opponent: this.play.opponent, expected: this.play.expectedMove?.iccs, engine: this.engine.name };
  }

  /** A simulated board: a move played by the hand, answered once recorded or refused; or set up. */
  simulate(request: {
    move?: string;
    reset?: boolean;
    fen?: string;
  }): Promise<Result<SimulateAnswer, SessionError>> {
    if (!this.queue)
      return Promise.resolve(fail('not_simulated', `board ${this.id} is not a simulated board`));
    const req: SimulateRequest =
      request.move !== undefined
        ? { move: request.move }
        : request.fen !== undefined
          ? { fen: request.fen }
          : { reset: true };
    return this.queue.request(req);
  }

  // --- internals ----------------------------------------------------------------------------------

  private playingGame(): Result<Game, SessionError> {
    if (this.core.phase === 'over') return fail('game_over', 'the game is over');
    if (this.core.phase !== 'playing' || this.core.game.isOver) return fail('no_game', 'no game in progress');
    return ok(this.core.game);
  }

  private onSensor(e: SensorEvent): void {
    if (e.type === 'link') {
      if (e.up) this.logger.info('link up');
      else this.logger.warn(`link down${e.reason ? `: ${e.reason}` : ''}`);
      // The link going down as the session stops is still announced.
      this.bus.emit('board.availability', {
        board: this.id,
        online: e.up,
        ...(e.reason ? { reason: e.reason } : {}),
      });
      this.core.recorder.log(e);
      return;
    }
    if (!this.actor) return;
    this.sensorHealth.feed(e);
    if (e.type === 'snapshot') {
      this.core.see(e.cells);
      this.core.recorder.log(e);
      this.bus.emit('board.frame', { board: this.id, t: e.t });
      this.actor.send({
        type: 'sensor',
        command: { type: 'snapshot', t: this.core.gameTime(e.t), cells: e.cells },
      });
    } else {
      this.core.recorder.log(e);
      this.gesture(e.side, e.t);
      this.actor.send({
        type: 'sensor',
        command: { type: 'button', t: this.core.gameTime(e.t), side: e.side },
      });
    }
  }

  /**
   * A move that ended the game, and the reader did not say so: its machine reads the refusal flag
   * of the commit before (the `rejected` guard reads the context, not the event), so the first
   * move after a refused one (play against the engine) is taken for refused too, and a mate then
   * goes unseen. The session ends such a game itself, once the reader had its turn.
   */
  private endIfMissed(): void {
    const game = this.core.game;
    setTimeout(() => {
      if (this.core.game === game && this.core.phase === 'playing' && this.core.isFinal()) {
        this.actor?.send({ type: 'ended' });
      }
    }, 0);
  }

  /** Both clock buttons pressed together ask for a hint (when the configuration says so). */
  private gesture(side: Color, t: number): void {
    if (this.engineConfig.hintGesture !== 'both-buttons') return;
    this.pressed[side] = t;
    if (Math.abs(this.pressed.red - this.pressed.black) > this.engineConfig.gestureMs) return;
    this.pressed.red = this.pressed.black = Number.NEGATIVE_INFINITY;
    void this.hint().then((r) => {
      if (!r.ok) this.logger.warn(`board ${this.id}: hint by gesture: ${r.error.message}`);
    });
  }

  private scheduleTick(): void {
    if (!this.gameOptions.clock) return;
    this.cancelTick = this.clock.setTimer(() => {
      if (!this.actor) return;
      if (this.core.tick()) this.actor.send({ type: 'ended' });
      this.scheduleTick();
    }, 250);
  }
}
