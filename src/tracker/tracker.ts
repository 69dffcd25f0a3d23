/**
 * A running move reader for one board: the machine as an actor on a clock, fed sensor events.
 * The moves it commits are played into the game here, then announced to subscribers; used the
 * same way by live play and replay.
 */
import { type Actor, createActor } from 'xstate';
import type { Game } from '../game/game.js';
import type { SensorEvent } from '../sensors/source.js';
import type { Clock } from '../util/clock.js';
import { Listeners } from '../util/listeners.js';
import { xstateClock } from './clock.js';
import { type FrameStage, takeFrame } from './frames.js';
import { type MoveRecord, TrackedGame } from './game-port.js';
import { createTrackerMachine, frameStage, type TrackerEmitted, type TrackerOptions } from './machine.js';

export type TrackerListener = (event: TrackerEmitted) => void;

const machine = createTrackerMachine();

const PUBLIC = ['alert', 'alertCleared', 'state', 'gameStart', 'gameOver'] as const;

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

  constructor(
    readonly game: Game,
    private options: TrackerOptions,
    private readonly clock: Clock,
    record?: MoveRecord,
  ) {
    this.port = new TrackedGame(game, record);
  }

  start(): void {
    const actor = createActor(machine, {
      input: { options: this.options, game: this.port.view(), now: () => this.clock.now() },
      clock: xstateClock(this.clock),
    });
    for (const type of PUBLIC)
      actor.on(type, (e) => this.deliver(() => this.listeners.emit(e as TrackerEmitted)));
    const commit = (c: Parameters<TrackedGame['commit']>[0]): void => {
      this.cancelRetry?.();
      this.cancelRetry = undefined;
      const done = this.port.commit(c);
      this.deliver(() => {
        for (const e of done.events) this.listeners.emit(e);
      });
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
    actor.subscribe((s) => this.deliver(() => this.stateListeners.emit(s.value)));
    actor.start();
    this.actor = actor;
  }

  stop(): void {
    this.cancelRetry?.();
    this.actor?.stop();
    this.actor = undefined;
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
  }

  /**
   * Feeds one sensor event (link events are the controller's business); ignored once stopped. A
   * frame the machine would only record is recorded by the stage in front of it (frames.ts).
   */
  send(event: SensorEvent): void {
    const actor = this.actor;
    if (!actor) return;
    if (event.type === 'snapshot') {
      if (this.delivering === 0) {
        const s = actor.getSnapshot();
        if (s !== this.stagedFor) {
          this.stage = frameStage(s);
          this.stagedFor = s;
        }
        const { readings, game } = s.context;
        if (takeFrame(this.stage!, readings, game.position, event.t, event.cells, this.clock.now())) return;
      }
      actor.send({ type: 'snapshot', t: event.t, cells: event.cells });
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
