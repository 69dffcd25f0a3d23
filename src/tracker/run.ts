/**
 * Runs sensor events through a fresh game and move reader in the events' own time (no waiting):
 * what `xqboard replay`, the tests of physical play and the benchmarks share.
 */
import { Game, type GameOptions } from '../game/game.js';
import type { Position } from '../rules/index.js';
import type { Sensing } from '../sensors/snapshot.js';
import type { SensorEvent } from '../sensors/source.js';
import { ManualClock } from '../util/clock.js';
import { type CodedError, err, ok, type Result } from '../util/result.js';
import { DEFAULT_TRACKER_OPTIONS, type TrackerEmitted, type TrackerOptions } from './machine.js';
import { Tracker } from './tracker.js';

export interface RunOptions {
  readonly sensing: Sensing;
  readonly tracker?: Partial<Omit<TrackerOptions, 'sensing'>>;
  readonly game?: GameOptions;
  /** Called with every emitted event and the tracker, as it happens. */
  readonly onEvent?: (event: TrackerEmitted, tracker: Tracker) => void;
  /** What people do off the board (a request), each once the clock reaches its `t`, in order. */
  readonly actions?: readonly { readonly t: number; readonly run: (tracker: Tracker) => void }[];
}

export interface RunResult {
  readonly game: Game;
  readonly emitted: TrackerEmitted[];
  /**
   * When each emitted event reached the listeners (the clock then). Mostly its own `t`; a move
   * read while several sensors could be the dead one is stamped when that doubt began and
   * published only once play told which: what a viewer saw, and when, is this.
   */
  readonly publishedAt: number[];
}

export function runSensorEvents(
  start: Position | string | undefined,
  events: Iterable<SensorEvent>,
  options: RunOptions,
): Result<RunResult, CodedError<'bad_position'>> {
  // At the board, play goes on past an unclaimed repetition or the move limit if the players go on.
  const started = Game.start(start, { playOn: true, ...options.game });
  if (!started.ok) return err({ code: 'bad_position', message: started.error.message });
  const game = started.value;
  const trackerOptions: TrackerOptions = {
    ...DEFAULT_TRACKER_OPTIONS,
    ...options.tracker,
    sensing: options.sensing,
  };
  const clock = new ManualClock(0);
  const tracker = new Tracker(game, trackerOptions, clock);
  const emitted: TrackerEmitted[] = [];
  const publishedAt: number[] = [];
  tracker.subscribe((e) => {
    emitted.push(e);
    publishedAt.push(clock.now());
    options.onEvent?.(e, tracker);
  });
  tracker.start();
  const actions = [...(options.actions ?? [])].sort((a, b) => a.t - b.t);
  let next = 0;
  const until = (t: number): void => {
    for (; next < actions.length && actions[next]!.t <= t; next++) {
      const action = actions[next]!;
      if (action.t > clock.now()) clock.advance(action.t - clock.now());
      action.run(tracker);
    }
    if (Number.isFinite(t) && t > clock.now()) clock.advance(t - clock.now());
  };
  for (const event of events) {
    until(event.t);
    tracker.send(event);
  }
  // (Actions after the last frame too.)
  until(Number.POSITIVE_INFINITY);
  // Time goes on after the last frame: every timer the last frames started runs out.
  clock.advance(
    Math.max(trackerOptions.outOfSyncMs, trackerOptions.settleMs, trackerOptions.foulAfterMs) + 1000,
  );
  tracker.stop();
  return ok({ game, emitted, publishedAt });
}

/** The events as the listeners had them: each timed when it was published (see `publishedAt`). */
export function asPublished(run: RunResult): TrackerEmitted[] {
  return run.emitted.map((e, i) => {
    const t = run.publishedAt[i]!;
    return t === e.t ? e : { ...e, t };
  });
}
