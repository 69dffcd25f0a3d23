/**
 * A sensor log played back as a sensor source, in the log's own time: events keep the log's `t`.
 * Pacing is injected: as fast as possible (no waiting: `xqboard replay`, tests) or real time on a
 * clock (demos). Fed to the same pipeline as a live board.
 */
import { readFileCapped } from '../record/read-capped.js';
import { type Clock, type ManualClock, systemClock } from '../util/clock.js';
import { Listeners } from '../util/listeners.js';
import { type CodedError, err, type Result } from '../util/result.js';
import { parseSensorLog, type SensorLog, type SensorLogError, type SensorLogEvent } from './sensor-log.js';
import type { Sensing } from './snapshot.js';
import type { SensorEvent, SensorListener, SensorSource, SourceHealth } from './source.js';

export type ReplayPace =
  /**
   * Everything in order, without waiting, inside `start()`. With a `ManualClock`, the clock is
   * advanced to each event's log time `t` before the event (the clock then reads log time; start
   * it at 0 or earlier), so timers set on it (a tracker's settle time) fire where they would have
   * in the game.
   */
  | { readonly kind: 'asap'; readonly clock?: ManualClock }
  /** Waits on the clock between events; `speed` 2 plays twice as fast. */
  | { readonly kind: 'realtime'; readonly clock: Clock; readonly speed: number };

export const asFastAsPossible = (clock?: ManualClock): ReplayPace =>
  clock ? { kind: 'asap', clock } : { kind: 'asap' };

export const realTime = (options: { clock?: Clock; speed?: number } = {}): ReplayPace => ({
  kind: 'realtime',
  clock: options.clock ?? systemClock,
  speed: options.speed ?? 1,
});

export interface ReplayOptions {
  readonly id?: string;
  readonly log: SensorLog;
  /** Default: as fast as possible. */
  readonly pace?: ReplayPace;
}

export class ReplaySource implements SensorSource {
  readonly id: string;
  readonly sensing: Sensing;
  readonly log: SensorLog;
  /** Resolves when the last event has been emitted, or playback was stopped. */
  readonly finished: Promise<void>;
  private readonly pace: ReplayPace;
  private readonly listeners = new Listeners<SensorEvent>();
  private next = 0;
  private snapshots = 0;
  private running = false;
  private cancelTimer: (() => void) | undefined;
  private resolveFinished!: () => void;
  /** Real-time pace: clock time that corresponds to the log time of the first event. */
  private clockStart = 0;

  constructor(options: ReplayOptions) {
    this.log = options.log;
    this.id = options.id ?? options.log.header.board ?? 'replay';
    this.sensing = options.log.header.sensing;
    this.pace = options.pace ?? { kind: 'asap' };
    this.finished = new Promise((resolve) => {
      this.resolveFinished = resolve;
    });
  }

  /** Events emitted so far. */
  get position(): number {
    return this.next;
  }

  get done(): boolean {
    return this.next >= this.log.events.length;
  }

  subscribe(listener: SensorListener): () => void {
    return this.listeners.add(listener);
  }

  health(): SourceHealth {
    return { badFrames: 0, snapshots: this.snapshots, reconnects: 0, linkUp: this.running };
  }

  async start(): Promise<void> {
    if (this.running || this.done) {
      if (this.done) this.resolveFinished();
      return;
    }
    this.running = true;
    const pace = this.pace;
    if (pace.kind === 'asap') {
      this.playAsap(pace.clock);
    } else {
      this.clockStart = pace.clock.now();
      this.scheduleNext(pace);
    }
  }

  async stop(): Promise<void> {
    this.running = false;
    this.cancelTimer?.();
    this.cancelTimer = undefined;
    this.resolveFinished();
  }

  private emit(event: SensorLogEvent): void {
    this.next++;
    if (event.type === 'snapshot') this.snapshots++;
    this.listeners.emit(event);
  }

  private logStart(): number {
    return this.log.events[0]?.t ?? 0;
  }

  private playAsap(clock: ManualClock | undefined): void {
    const events = this.log.events;
    while (this.running && this.next < events.length) {
      const event = events[this.next]!;
      if (clock) {
        if (event.t > clock.now()) clock.advance(event.t - clock.now());
        if (!this.running) break;
      }
      this.emit(event);
    }
    this.finish();
  }

  private scheduleNext(pace: Extract<ReplayPace, { kind: 'realtime' }>): void {
    const events = this.log.events;
    const event = events[this.next];
    if (!this.running) return;
    if (!event) {
      this.finish();
      return;
    }
    const due = this.clockStart + (event.t - this.logStart()) / pace.speed;
    this.cancelTimer = pace.clock.setTimer(
      () => {
        this.cancelTimer = undefined;
        if (!this.running) return;
        // Events of the same millisecond go together.
        const t = event.t;
        while (this.running && events[this.next]?.t === t) this.emit(events[this.next]!);
        this.scheduleNext(pace);
      },
      Math.max(0, due - pace.clock.now()),
    );
  }

  private finish(): void {
    if (this.next >= this.log.events.length) this.running = false;
    this.resolveFinished();
  }
}

export type ReplayFileError = SensorLogError | CodedError<'unreadable'>;

/** A sensor log this long would be weeks of play: more is not one (a device, a file given by mistake). */
export const MAX_SENSOR_LOG_BYTES = 256 * 1024 * 1024;

/** Reads and checks a log file. Messages do not repeat the path (callers prefix it): `line 3: …`. */
export async function readSensorLogFile(path: string): Promise<Result<SensorLog, ReplayFileError>> {
  let bytes: Buffer | undefined;
  try {
    bytes = readFileCapped(path, MAX_SENSOR_LOG_BYTES);
  } catch (e) {
    return err({ code: 'unreadable', message: `cannot read the file: ${(e as Error).message}` });
  }
  if (bytes === undefined) {
    return err({ code: 'unreadable', message: `not a sensor log: more than ${MAX_SENSOR_LOG_BYTES} bytes` });
  }
  return parseSensorLog(bytes.toString('utf8'));
}
