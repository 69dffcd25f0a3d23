/**
 * A running move reader for one board: the machine as an actor on a clock, fed sensor events,
 * with its emitted events delivered to subscribers. Used the same way by live play and replay.
 */
import { type Actor, createActor } from 'xstate';
import type { Game } from '../game/game.js';
import type { Clock } from '../sensors/clock.js';
import { Listeners, type SensorEvent } from '../sensors/source.js';
import { xstateClock } from './clock.js';
import { TrackedGame } from './game-port.js';
import { createTrackerMachine, type TrackerEmitted, type TrackerOptions } from './machine.js';

export type TrackerListener = (event: TrackerEmitted) => void;

const machine = createTrackerMachine();

export class Tracker {
  readonly port: TrackedGame;
  private actor: Actor<typeof machine> | undefined;
  private readonly listeners = new Listeners<TrackerEmitted>();

  constructor(
    readonly game: Game,
    private readonly options: TrackerOptions,
    private readonly clock: Clock,
  ) {
    this.port = new TrackedGame(game);
  }

  start(): void {
    const actor = createActor(machine, {
      input: { options: this.options, game: this.port, now: () => this.clock.now() },
      clock: xstateClock(this.clock),
    });
    for (const type of [
      'move',
      'retract',
      'alert',
      'alertCleared',
      'state',
      'gameStart',
      'gameOver',
    ] as const) {
      actor.on(type, (e) => this.listeners.emit(e as TrackerEmitted));
    }
    actor.start();
    this.actor = actor;
  }

  stop(): void {
    this.actor?.stop();
    this.actor = undefined;
  }

  subscribe(listener: TrackerListener): () => void {
    return this.listeners.add(listener);
  }

  /** Feeds one sensor event (link events are the controller's business); ignored once stopped. */
  send(event: SensorEvent): void {
    if (!this.actor) return;
    if (event.type === 'snapshot') this.actor.send({ type: 'snapshot', t: event.t, cells: event.cells });
    else if (event.type === 'button') this.actor.send({ type: 'button', t: event.t, side: event.side });
  }

  /**
   * Changes options of the game being read, at once. Minimal stand-in (the controller's): the
   * machine reads its options object live, so this only writes into it.
   */
  setOptions(partial: { takebacks?: boolean; foulAfterMs?: number }): void {
    Object.assign(this.options as { takebacks: boolean; foulAfterMs: number }, partial);
  }

  /** The machine's state value, for tests and status pages. */
  get state(): unknown {
    return this.actor?.getSnapshot().value;
  }
}
