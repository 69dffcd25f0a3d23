/**
 * A running move reader for one board: the machine as an actor on a clock, fed sensor events.
 * The moves it commits are played into the game here, then announced to subscribers; used the
 * same way by live play and replay.
 */
import { type Actor, createActor } from 'xstate';
import { Game } from '../game/game.js';
import { type Move, makeFen, makeIccs, makeSquareName, type Square } from '../rules/index.js';
import type { Cells } from '../sensors/snapshot.js';
import type { SensorEvent } from '../sensors/source.js';
import type { Clock } from '../util/clock.js';
import { Listeners } from '../util/listeners.js';
import { type CodedError, err, ok, type Result } from '../util/result.js';
import { xstateClock } from './clock.js';
import { type FrameStage, takeFrame } from './frames.js';
import { type MoveRecord, TrackedGame } from './game-port.js';
import {
  type Alert,
  type AlertKind,
  createTrackerMachine,
  frameStage,
  type MachineEmitted,
  sensorFaultAlert,
  type TrackerEmitted,
  type TrackerOptions,
} from './machine.js';

export type TrackerListener = (event: TrackerEmitted) => void;

/** Why the players' choice of a doubt's candidate was refused (`Tracker.choose`). */
export type ChooseErrorCode = 'no_doubt' | 'bad_candidate' | 'contradicted' | 'stale';

/** Why the players' correction of the record was refused (`Tracker.correct`). */
export type CorrectErrorCode = 'no_game' | 'doubt' | 'bad_ply' | 'illegal_move' | 'not_recorded';

const machine = createTrackerMachine();

const PUBLIC = ['alert', 'alertCleared', 'state', 'gameStart', 'gameOver'] as const;

/** Alerts that say a world's story is broken: play there is not what the board shows. */
const BROKEN = new Set(['out_of_sync', 'sensor_fault', 'move_rejected', 'takeback_forbidden']);
/**
 * An illegal move standing this long breaks a world's story (players put an illegal placement
 * right within seconds; a world that reads the wrong piece there never sees it put right).
 */
const ILLEGAL_BREAKS_MS = 4000;

type Fork = Extract<MachineEmitted, { type: 'fork' }>;

/** One world of a doubt: the game read on as if its square's sensor were the dead one. */
interface World {
  /** Its place among the fork's worlds (the `ambiguous` alert's candidates). */
  readonly index: number;
  readonly square: Square;
  readonly reads: 'empty' | 'occupied';
  readonly moves: readonly Move[];
  /** Its line follows this many moves taken back. */
  readonly retract: number;
  readonly tracker: Tracker;
  /**
   * Plies of its game at the fork, its line played. Taking back a move of its line is part of its
   * story (a slide that stopped on the point the fork saw goes on); a takeback past it breaks it.
   */
  readonly plies: number;
  /** What it recorded since, to be played into the game if it is the world left. */
  readonly recorded: Extract<TrackerEmitted, { type: 'move' } | { type: 'retract' }>[];
  broken: boolean;
  idle: boolean;
  /** Since when its reading shows an illegal move. */
  illegalAt: number | undefined;
  /** Its moves (the line, then what it recorded) written to the game so far. */
  written: number;
}

/**
 * A world still open this long after the fork, others too, ends the doubt: the first of them is
 * recorded, and said to be in doubt (the players may correct it).
 */
const DOUBT_MAX_MS = 120_000;
/**
 * Worlds that have read this many moves each since the fork and stand in the same position now
 * differ only in how they got there (a piece's stop on one of two dead-looking points): play may
 * never tell them apart, so the first is recorded at once, said to be in doubt.
 */
const CONVERGED_PLIES = 2;

export class Tracker {
  readonly port: TrackedGame;
  private actor: Actor<typeof machine> | undefined;
  private readonly listeners = new Listeners<TrackerEmitted>();
  private readonly stateListeners = new Listeners<unknown>();
  private cancelRetry: (() => void) | undefined;
  /** What the machine does with a frame, worked out once per machine snapshot (see frames.ts). */
  private stage: FrameStage | undefined;
  private stagedFor: unknown;
  /** Machine events being handed out: a frame sent meanwhile waits its turn in the machine. */
  private delivering = 0;
  /** The latest frame (its time and cells): a machine started in mid-game reads the board from it. */
  private lastFrameT = 0;
  private lastCells: Cells | undefined;
  /** A doubt over which sensor is dead: the worlds read on, this tracker's machine waits. */
  private doubt: { fork: Fork; worlds: World[]; timers: (() => void)[] } | undefined;
  /**
   * A doubt recorded as its first world while others still fitted (`undecided`): what each world
   * would record from the ply it starts at, for the players to say which was played (`choose`).
   * Ends with the next doubt or correction.
   */
  private undecided: { ply: number; line: Move[]; square: Square; reads: 'empty' | 'occupied' }[] | undefined;
  /** The kinds of the machine's alerts raised and not ended (a correction ends them). */
  private readonly standing = new Set<AlertKind>();
  /** When each ply of the record was read (by index; a correction asks since when a point held). */
  private readonly plyTimes: number[] = [];
  /** A world's tracker: a doubt of its own breaks its story (one dead sensor at a time). */
  private onFork: (() => void) | undefined;

  constructor(
    readonly game: Game,
    private options: TrackerOptions,
    private readonly clock: Clock,
    record?: MoveRecord,
  ) {
    this.port = new TrackedGame(game, record);
  }

  start(): void {
    this.launch(undefined);
  }

  /** Starts the machine: in setup, or (`resume`) in play with these sensors dead, from the latest frame. */
  private launch(
    resume: { mask: readonly Square[]; settled?: boolean; doubted?: boolean } | undefined,
  ): void {
    const actor = createActor(machine, {
      input: { options: this.options, game: this.port.view(), now: () => this.clock.now() },
      clock: xstateClock(this.clock),
    });
    for (const type of PUBLIC)
      actor.on(type, (e) => {
        if (e.type === 'alert') this.standing.add(e.alert.kind);
        else if (e.type === 'alertCleared') this.standing.delete(e.kind);
        else if (e.type === 'gameStart') this.plyTimes[0] = e.t;
        this.deliver(() => this.listeners.emit(e as TrackerEmitted));
      });
    const commit = (c: Parameters<TrackedGame['commit']>[0]): void => {
      this.cancelRetry?.();
      this.cancelRetry = undefined;
      const done = this.port.commit(c);
      this.announce(done.events);
      // Not recorded: the machine waits in `committing` and the commit is tried again, unless a
      // new reading moved it on (it then judges the board against the recorded game).
      if (done.retryMs !== undefined) {
        this.cancelRetry = this.clock.setTimer(() => {
          // Played when it is written: the game's time (its clock) has gone on meanwhile.
          const again = { ...c, t: Math.max(c.t, this.clock.now()) };
          if (this.actor === actor && actor.getSnapshot().matches({ playing: 'committing' })) commit(again);
        }, done.retryMs);
        return;
      }
      actor.send({ type: 'applied', game: this.port.view(), rejected: done.rejected });
    };
    actor.on('commit', commit);
    actor.on('foul', (f) => {
      this.port.foul(f.side, f.t);
      actor.send({ type: 'applied', game: this.port.view() });
    });
    actor.on('fork', (f) => this.fork(f));
    actor.subscribe((s) => this.deliver(() => this.stateListeners.emit(s.value)));
    actor.start();
    this.actor = actor;
    if (resume) {
      actor.send({
        type: 'resume',
        mask: resume.mask,
        settled: resume.settled === true,
        doubted: resume.doubted === true,
      });
      if (this.lastCells !== undefined)
        actor.send({ type: 'snapshot', t: this.lastFrameT, cells: this.lastCells });
    }
  }

  stop(): void {
    this.cancelRetry?.();
    this.actor?.stop();
    this.actor = undefined;
    this.endDoubt();
  }

  /**
   * The machine cannot tell which of several sensors is dead: read on in a world for each (its
   * square masked, its line played) until one is left, then record what that world read.
   */
  private fork(f: Fork): void {
    if (this.onFork) {
      this.onFork();
      return;
    }
    const worlds: World[] = [];
    this.doubt = { fork: f, worlds, timers: [] };
    this.undecided = undefined;
    for (const [index, w] of f.worlds.entries()) {
      // (A copy of the game with its line played: no clock, no journal.)
      const copy = this.copyOfGame(this.port.game.moves.length);
      if (!copy.ok) continue;
      const game = copy.value;
      const back = w.retract ?? 0;
      let undone = 0;
      while (undone < back && game.undoLast(f.t).ok) undone++;
      if (undone < back) continue;
      if (!w.moves.every((m) => game.play(m, f.t).ok)) continue;
      // (A world that loses the board is over: it is not read again.)
      const tracker = new Tracker(game, { ...this.options, resync: false }, this.clock);
      const world: World = {
        index,
        square: w.square,
        reads: w.reads,
        moves: w.moves,
        retract: w.retract ?? 0,
        tracker,
        plies: game.moves.length,
        recorded: [],
        broken: false,
        idle: false,
        illegalAt: undefined,
        written: 0,
      };
      tracker.lastFrameT = this.lastFrameT;
      tracker.lastCells = this.lastCells;
      tracker.onFork = () => this.worldEvent(world, undefined);
      tracker.subscribe((e) => this.worldEvent(world, e));
      worlds.push(world);
    }
    for (const w of worlds) w.tracker.launch({ mask: [...f.mask, w.square] });
    this.later(() => this.resolve(), 1);
  }

  /** What a world's reading says of its story (`undefined`: it forked itself). */
  private worldEvent(world: World, e: TrackerEmitted | undefined): void {
    if (world.broken) return;
    if (
      e === undefined ||
      (e.type === 'alert' && BROKEN.has(e.alert.kind)) ||
      (e.type === 'alertCleared' && e.kind === 'sensor_fault') ||
      (e.type === 'retract' && e.ply <= world.plies - world.moves.length)
    )
      world.broken = true;
    else if (e.type === 'move' || e.type === 'retract') {
      world.recorded.push(e);
      world.idle = false;
    } else if (e.type === 'state') world.idle = e.state === 'awaiting_move';
    else if (e.type === 'alert' && e.alert.kind === 'illegal_move') {
      world.illegalAt = e.t;
      this.later(() => this.resolve(), 1);
      this.later(() => this.resolve(), ILLEGAL_BREAKS_MS);
    } else if (e.type === 'alertCleared' && e.kind === 'illegal_move') world.illegalAt = undefined;
    // (Decided outside the world's own event: its machine is mid-step.)
    if (world.broken || world.idle) this.later(() => this.resolve(), 1);
  }

  /**
   * The players say which candidate of a standing doubt over a dead sensor is what was played (its
   * index in the `ambiguous` alert's `candidates`): the other worlds end, and that one's reading
   * is recorded, its sensor named, as when play leaves it alone.
   *
   * `sensor`, the point the alert gave that candidate as dead, ties the answer to the alert it
   * answers: a doubt that ended and was asked again meanwhile numbers its candidates afresh, and
   * an answer meant for the old one is refused (`stale`), never applied to the new one.
   */
  choose(
    candidate: number,
    sensor?: Square,
  ): Result<{ line: string[]; square: string }, CodedError<ChooseErrorCode>> {
    const doubt = this.doubt;
    const count = doubt?.fork.worlds.length ?? 0;
    if ((!doubt || count < 2) && this.undecided)
      return this.chooseRecorded(this.undecided, candidate, sensor);
    if (!doubt || count < 2)
      return err({ code: 'no_doubt', message: 'no doubt over which sensor is dead stands on this board' });
    const world = doubt.worlds.find((w) => w.index === candidate);
    if (!world)
      return err({
        code: 'bad_candidate',
        message: `candidate ${candidate} is not one of the alert's: give 0 to ${count - 1}`,
      });
    if (sensor !== undefined && sensor !== world.square)
      return err(staleChoice(candidate, world.square, sensor));
    if (world.broken)
      return err({
        code: 'contradicted',
        message: `candidate ${candidate} no longer fits the board: play since has shown it is not what was played`,
      });
    for (const w of doubt.worlds) if (w !== world) w.broken = true;
    // (Resolved outside the caller's step, as a world's own events are.)
    this.later(() => this.resolve(), 0);
    return ok({ line: world.moves.map(makeIccs), square: makeSquareName(world.square) });
  }

  /**
   * A candidate of a doubt already recorded as its first world: the record is corrected to that
   * world's line (the moves read since kept, as a correction keeps them) and its point named.
   */
  private chooseRecorded(
    worlds: NonNullable<Tracker['undecided']>,
    candidate: number,
    sensor: Square | undefined,
  ): Result<{ line: string[]; square: string }, CodedError<ChooseErrorCode>> {
    const world = worlds[candidate];
    if (!world)
      return err({
        code: 'bad_candidate',
        message: `candidate ${candidate} is not one of the alert's: give 0 to ${worlds.length - 1}`,
      });
    if (sensor !== undefined && sensor !== world.square)
      return err(staleChoice(candidate, world.square, sensor));
    const named = { square: makeSquareName(world.square), line: world.line.map(makeIccs) };
    if (candidate === 0) return ok(named); // (the one recorded)
    const done = this.correct(world.ply, world.line, { square: world.square, reads: world.reads });
    if (!done.ok) return err({ code: 'contradicted', message: done.error.message });
    return ok(named);
  }

  /**
   * The players put the record right: from ply `ply` on the game was `line` (a move misread, or
   * one read where a dead sensor hid another), then the moves recorded after those it replaces,
   * as long as they are still legal. The whole line is checked before anything changes; the
   * reader then reads the board against the corrected game. A point the correction puts a piece
   * on that reads empty has a dead sensor: it is named at once and masked.
   */
  correct(
    ply: number,
    line: readonly Move[],
    dead?: { readonly square: Square; readonly reads: 'empty' | 'occupied' },
  ): Result<{ plies: number; kept: number }, CodedError<CorrectErrorCode>> {
    if (this.doubt)
      return err({
        code: 'doubt',
        message: 'the board doubts which sensor is dead: say which candidate was played (game/resolve)',
      });
    if (!this.actor?.getSnapshot().matches('playing'))
      return err({ code: 'no_game', message: 'no game is being read on this board' });
    const game = this.port.game;
    const recorded = game.moves.map((m) => m.move);
    if (ply < 1 || ply > recorded.length + 1)
      return err({ code: 'bad_ply', message: `ply ${ply}: the record has plies 1 to ${recorded.length}` });
    const copy = this.copyOfGame(ply - 1);
    if (!copy.ok) return err({ code: 'illegal_move', message: copy.error.message });
    // (Played at the record's last time: a copy has no clock, but its times must not go back.)
    const at = game.moves.at(-1)?.t ?? 0;
    for (const [k, m] of line.entries()) {
      const played = copy.value.play(m, at);
      if (!played.ok)
        return err({
          code: 'illegal_move',
          message: `ply ${ply + k}, ${makeIccs(m)}: ${played.error.message}`,
        });
    }
    const kept: Move[] = [];
    for (const m of recorded.slice(ply - 1 + line.length)) {
      if (!copy.value.play(m, at).ok) break;
      kept.push(m);
    }
    // The points the line set a piece down on (no capture), and when each point last changed.
    const landings = new Set<Square>();
    const before = this.copyOfGame(ply - 1);
    if (before.ok) {
      const pos = before.value.position.clone();
      for (const m of line) {
        if (pos.colorAt(m.to) === 0) landings.add(m.to);
        pos.play(m);
      }
    }
    const readings = this.actor?.getSnapshot().context.readings;
    const changedAt = readings?.squareChangedAt;
    const readFrom = readings?.squareReadFrom;
    const since = this.plyTimes[ply - 1] ?? Number.NEGATIVE_INFINITY;
    // (A doubt's world the players chose: its point is the dead one, not the first world's.)
    const wrong = dead && this.undecided?.[0]?.square;
    const mask = [...(readings?.mask ?? [])].filter((s) => s !== wrong);
    this.undecided = undefined;
    this.cancelRetry?.();
    this.cancelRetry = undefined;
    this.actor?.stop();
    this.actor = undefined;
    const t = this.clock.now();
    const steps = [
      ...recorded.slice(ply - 1).map(() => ({ moves: [] as Move[], revision: true })),
      ...[...line, ...kept].map((m) => ({ moves: [m], revision: false })),
    ];
    // What the old reading said of the board ends with it (a sensor found dead stays so; a check
    // is the game's, said again for the new record).
    const events: TrackerEmitted[] = [...this.standing]
      .filter((kind) => kind !== 'sensor_fault' && kind !== 'check')
      .map((kind) => ({ type: 'alertCleared' as const, kind, t }));
    this.standing.clear();
    let failed: string | undefined;
    for (const step of steps) {
      const done = this.port.commit({ type: 'commit', ...step, t, frameT: t });
      events.push(...done.events);
      if (done.retryMs !== undefined || done.rejected !== undefined) {
        failed = done.rejected ?? 'the record could not be written';
        break;
      }
    }
    // The players say a piece stands where the correction put it: a point there reading empty has
    // a dead sensor (named at once; unmasked if its reading changes: a piece in the hand set down).
    // Unless the board shows a piece the corrected game does not have: then it is the record the
    // board disagrees with, and says so.
    const cells = this.lastCells;
    const pos = game.position;
    const stray = cells !== undefined && [...cells].some((c, sq) => c !== '.' && pos.colorAt(sq) === 0);
    if (failed === undefined && dead) {
      if (!mask.includes(dead.square)) mask.push(dead.square);
      events.push({
        type: 'alert',
        t,
        alert: sensorFaultAlert(this.options.sensing, pos, dead.square, dead.reads),
      });
    } else if (failed === undefined && !stray) {
      for (const m of line) {
        if (mask.includes(m.to) || cells?.[m.to] !== '.') continue;
        // (It read a piece set down there since the line began, longer than a bounce: alive, that
        // piece in the hand now.)
        if ((readFrom?.[m.to] ?? Number.NEGATIVE_INFINITY) > since) continue;
        // A piece stands there now, or one was set down there and left, the point never changing
        // all the while: its sensor never read it.
        const under = pos.colorAt(m.to) !== 0;
        const unread = landings.has(m.to) && (changedAt?.[m.to] ?? Number.POSITIVE_INFINITY) < since;
        if (!under && !unread) continue;
        mask.push(m.to);
        events.push({
          type: 'alert',
          t,
          alert: sensorFaultAlert(this.options.sensing, pos, m.to, 'empty'),
        });
      }
    }
    this.announce(events);
    this.launch({ mask, settled: true });
    if (failed !== undefined)
      return err({
        code: 'not_recorded',
        message: `${failed}: the record stands at ply ${game.moves.length}`,
      });
    return ok({ plies: game.moves.length, kept: kept.length });
  }

  /** The game's first `plies` moves in a game of their own: no clock, no journal. */
  private copyOfGame(plies: number): ReturnType<typeof Game.fromRecord> {
    const game = this.port.game;
    return Game.fromRecord({ fen: game.startFen, moves: game.moves.slice(0, plies) }, { playOn: true });
  }

  /** Runs `fn` in `ms` if the doubt still stands (outside any world's machine step). */
  private later(fn: () => void, ms: number): void {
    const doubt = this.doubt;
    if (!doubt) return;
    const cancel = this.clock.setTimer(() => {
      // (Run: no longer one to cancel.)
      const k = doubt.timers.indexOf(cancel);
      if (k >= 0) doubt.timers.splice(k, 1);
      if (this.doubt === doubt) fn();
    }, ms);
    doubt.timers.push(cancel);
  }

  /**
   * One world left and at rest: its reading is the game's. Several that have read on to the same
   * position, or still open after DOUBT_MAX_MS: the first one's, said to be in doubt. None left:
   * read the board afresh.
   */
  private resolve(): void {
    const doubt = this.doubt;
    if (!doubt) return;
    const now = this.clock.now();
    // An illegal move breaks a world's story once it has stood as long as players leave one; at
    // once while another world reads the same board as play, at rest: the frames are a legal move
    // there, and the story that needs the players to have erred is the weaker one.
    const sound = doubt.worlds.some((w) => !w.broken && w.idle && w.illegalAt === undefined);
    for (const w of doubt.worlds)
      if (w.illegalAt !== undefined && (sound || now - w.illegalAt >= ILLEGAL_BREAKS_MS)) w.broken = true;
    const open = doubt.worlds.filter((w) => !w.broken);
    const expired = now - doubt.fork.t >= DOUBT_MAX_MS;
    if (open.length > 1 && !expired && !converged(open)) return;
    if (open.length > 0 && !open[0]!.idle) {
      this.later(() => this.resolve(), 50);
      return;
    }
    // (Several still open: the first, the others its rivals.)
    const world = open[0];
    const rivals = open.slice(1);
    const { fork } = doubt;
    const events: TrackerEmitted[] = [];
    if (world) {
      // One move a step: a write the journal refuses is then a step not done, tried again later
      // (the world reads on meanwhile, so nothing played is lost).
      const steps = [
        ...Array.from({ length: world.retract }, () => ({
          moves: [],
          revision: true,
          t: fork.t,
          frameT: fork.frameT,
        })),
        ...world.moves.map((m) => ({ moves: [m], revision: false, t: fork.t, frameT: fork.frameT })),
        ...world.recorded.map((e) =>
          e.type === 'move'
            ? { moves: [e.move], revision: false, t: e.t, frameT: e.frameT }
            : { moves: [], revision: true, t: e.t, frameT: e.t },
        ),
      ];
      for (; world.written < steps.length; world.written++) {
        const done = this.port.commit({ type: 'commit', ...steps[world.written]! });
        events.push(...done.events);
        if (done.retryMs !== undefined) {
          this.announce(events);
          this.later(() => this.resolve(), done.retryMs);
          return;
        }
        if (done.rejected !== undefined) break;
      }
    }
    this.endDoubt();
    this.actor?.stop();
    this.undecided =
      world && rivals.length > 0
        ? open.map((w) => ({
            ply: w.plies - w.moves.length + 1, // (its line's first ply)
            line: worldLine(w),
            square: w.square,
            reads: w.reads,
          }))
        : undefined;
    if (fork.worlds.length > 1) events.push({ type: 'alertCleared', kind: 'ambiguous', t: this.clock.now() });
    if (world && rivals.length > 0)
      events.push({ type: 'alert', t: this.clock.now(), alert: undecided(world, rivals) });
    let mask = fork.mask;
    if (world) {
      mask = [...mask, world.square];
      events.push({
        type: 'alert',
        t: this.clock.now(),
        alert: sensorFaultAlert(
          this.options.sensing,
          this.port.game.position,
          world.square,
          world.reads,
          world.reads === 'occupied' && world.moves.length === 0,
        ),
      });
    }
    this.announce(events);
    this.launch({ mask, doubted: world !== undefined && rivals.length > 0 });
  }

  /** Hands the game's own events (moves, takebacks, alerts) to the listeners. */
  private announce(events: readonly TrackerEmitted[]): void {
    for (const e of events) {
      if (e.type === 'move') this.plyTimes[e.ply] = e.t;
      else if (e.type === 'retract') this.plyTimes.length = e.ply;
    }
    this.deliver(() => {
      for (const e of events) this.listeners.emit(e);
    });
  }

  private endDoubt(): void {
    const doubt = this.doubt;
    if (!doubt) return;
    this.doubt = undefined;
    for (const cancel of doubt.timers) cancel();
    for (const w of doubt.worlds) w.tracker.stop();
  }

  subscribe(listener: TrackerListener): () => void {
    return this.listeners.add(listener);
  }

  /** Every state value the machine passes through (for tests of its coverage). */
  subscribeStates(listener: (value: unknown) => void): () => void {
    return this.stateListeners.add(listener);
  }

  /** Changes the rules of reading while a game is under way (takebacks, the foul policy). */
  setOptions(options: Partial<Pick<TrackerOptions, 'takebacks' | 'foulAfterMs'>>): void {
    this.options = { ...this.options, ...options };
    this.actor?.send({ type: 'options', options });
    for (const w of this.doubt?.worlds ?? []) w.tracker.setOptions(options);
  }

  /**
   * Feeds one sensor event (link events are the controller's business); ignored once stopped. A
   * frame the machine would only record is recorded by the stage in front of it (frames.ts).
   */
  send(event: SensorEvent): void {
    const actor = this.actor;
    if (!actor) return;
    // (Two fields, not an object: nothing allocated per frame.)
    const changed = event.type === 'snapshot' && event.cells !== this.lastCells;
    if (event.type === 'snapshot') {
      this.lastFrameT = event.t;
      this.lastCells = event.cells;
    }
    if (this.doubt) {
      for (const w of this.doubt.worlds) {
        if (w.broken) continue;
        // (At rest again only once its machine has read the change.)
        if (changed) w.idle = false;
        w.tracker.send(event);
      }
      return;
    }
    if (event.type === 'snapshot') {
      if (this.delivering === 0) {
        const s = actor.getSnapshot();
        if (s !== this.stagedFor) {
          this.stage = frameStage(s);
          this.stagedFor = s;
        }
        const { readings, game } = s.context;
        const now = this.clock.now();
        if (takeFrame(this.stage!, readings, game.position, event.t, event.cells, now, event.since)) return;
      }
      actor.send({ type: 'snapshot', t: event.t, cells: event.cells, since: event.since });
    } else if (event.type === 'button') actor.send({ type: 'button', t: event.t, side: event.side });
  }

  /** Hands machine events out to listeners (who may send frames meanwhile: they wait their turn). */
  private deliver(emit: () => void): void {
    this.delivering++;
    try {
      emit();
    } finally {
      this.delivering--;
    }
  }

  /** The machine's state value, for tests and status pages. */
  get state(): unknown {
    return this.actor?.getSnapshot().value;
  }
}

/** An answer naming another sensor than the standing doubt's candidate: meant for a doubt now over. */
function staleChoice(candidate: number, standing: Square, named: Square): CodedError<ChooseErrorCode> {
  return {
    code: 'stale',
    message: `candidate ${candidate} of the doubt standing now takes ${makeSquareName(standing)} for dead, not ${makeSquareName(named)}: the doubt that answer was for is over; answer the alert standing now`,
  };
}

/** What a world read from the ply it starts at: its line, then the moves it read on (its takebacks applied). */
function worldLine(w: World): Move[] {
  const line = [...w.moves];
  for (const e of w.recorded) {
    if (e.type === 'move') line.push(e.move);
    else line.pop();
  }
  return line;
}

/** The worlds have each read a few moves since the fork and agree on the position now. */
function converged(open: readonly World[]): boolean {
  const fen = (w: World) => makeFen(w.tracker.port.game.position.toSetup());
  const first = fen(open[0]!);
  return open.every((w) => w.idle && countMoves(w) >= CONVERGED_PLIES && fen(w) === first);
}

const countMoves = (w: World): number => w.recorded.filter((e) => e.type === 'move').length;

/** The first open world recorded while others still fit: said, with what else it may have been. */
function undecided(world: World, rivals: readonly World[]): Alert {
  // (Each world's reading since the fork, up to where play stopped telling them apart.)
  const line = (w: World) => worldLine(w).map(makeIccs).join(' ') || 'no move';
  const all = [world, ...rivals];
  return {
    kind: 'ambiguous',
    message:
      `recorded ${line(world)} (the sensor of ${makeSquareName(world.square)} taken for dead), but play has not ` +
      `told it from ${rivals.map((w) => `${line(w)} (${makeSquareName(w.square)})`).join(' or ')}: if that was ` +
      'played, say which candidate it was, or correct the record',
    candidates: all.map((w) => worldLine(w).map(makeIccs)),
    sensors: all.map((w) => makeSquareName(w.square)),
  };
}
