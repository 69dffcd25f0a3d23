import { type Color, opposite } from '../rules/index.js';
import { type CodedError, err, ok, type Result } from '../util/result.js';
/**
 * Rule 4.1.4: a chess clock driven only by the times the caller gives (ms on any monotonic
 * scale); it never reads the wall clock, so tests and log replays run it exactly.
 *
 * A control is a list of periods, each "N moves in T ms" or a sudden death ("the rest of the game
 * in T ms"), with an optional increment per move (Fischer). When a side completes the moves of a
 * period in time, the next period's time is added to what it has left; after the last period with
 * a move count, that period repeats (unless `repeatLast: false`, which makes the game end in
 * sudden death on whatever time is left). The clock runs for the side to move and switches when
 * that side completes a move (or presses its clock button). The flag falls when a side's time
 * reaches zero before it completes the moves of its period: a time of exactly zero is a fall.
 */

export interface ClockPeriod {
  /** Moves to complete in this period; undefined: the rest of the game (sudden death). */
  readonly moves?: number;
  readonly ms: number;
  /** Added after each move made in this period. */
  readonly incrementMs?: number;
}

export interface ClockControl {
  readonly periods: readonly ClockPeriod[];
  /** Repeat the last period when it has a move count (default true). */
  readonly repeatLast?: boolean;
}

export type ClockErrorCode = 'bad_control' | 'not_started' | 'not_running' | 'time_backwards' | 'flag_fell';
export type ClockError = CodedError<ClockErrorCode>;

export interface Flag {
  readonly color: Color;
  /** The time at which the flag fell (when the side's time reached zero). */
  readonly at: number;
}

interface SideState {
  /** Time left, as of the last switch (for the running side: as of `since`). */
  remaining: number;
  period: number;
  movesInPeriod: number;
  moves: number;
}

interface PressRecord {
  readonly color: Color;
  readonly before: SideState;
  /** Time the side spent on the move it completed with this press. */
  readonly used: number;
  /** Time left to the side just after the press (increments and a new period included). */
  left?: number;
}

/** Parses "40/7200+30, 20/3600, 1800" style controls: moves/seconds[+increment], comma-separated. */
export function parseClockControl(text: string): Result<ClockControl, ClockError> {
  const periods: ClockPeriod[] = [];
  for (const part of text.split(',').map((p) => p.trim())) {
    const m = /^(?:(\d+)\/)?(\d+(?:\.\d+)?)(?:\+(\d+(?:\.\d+)?))?$/.exec(part);
    if (!m) {
      return err({
        code: 'bad_control',
        message: `clock period '${part}' is not [moves/]seconds[+increment]`,
      });
    }
    periods.push({
      ...(m[1] ? { moves: Number(m[1]) } : {}),
      ms: Number(m[2]) * 1000,
      ...(m[3] ? { incrementMs: Number(m[3]) * 1000 } : {}),
    });
  }
  return ok({ periods });
}

export class ChessClock {
  private readonly sides: Record<Color, SideState>;
  private runningSide: Color | undefined;
  private since = 0;
  private lastTime = Number.NEGATIVE_INFINITY;
  private fallen: Flag | undefined;
  private readonly log: PressRecord[] = [];

  private constructor(readonly control: ClockControl) {
    const first = control.periods[0]!;
    const fresh = (): SideState => ({ remaining: first.ms, period: 0, movesInPeriod: 0, moves: 0 });
    this.sides = { red: fresh(), black: fresh() };
  }

  static create(control: ClockControl): Result<ChessClock, ClockError> {
    const { periods } = control;
    if (periods.length === 0) return err({ code: 'bad_control', message: 'a clock control needs a period' });
    for (const [k, p] of periods.entries()) {
      const bad =
        !(Number.isFinite(p.ms) && p.ms > 0) ||
        (p.moves !== undefined && !(Number.isInteger(p.moves) && p.moves > 0)) ||
        (p.incrementMs !== undefined && !(Number.isFinite(p.incrementMs) && p.incrementMs >= 0));
      if (bad)
        return err({
          code: 'bad_control',
          message: `clock period ${k + 1} has a bad time, move count or increment`,
        });
      if (p.moves === undefined && k !== periods.length - 1) {
        return err({
          code: 'bad_control',
          message: `sudden death (period ${k + 1}) must be the last period`,
        });
      }
    }
    return ok(new ChessClock(control));
  }

  get running(): Color | undefined {
    return this.runningSide;
  }

  get flag(): Flag | undefined {
    return this.fallen;
  }

  /** Moves completed by `color` on this clock. */
  moves(color: Color): number {
    return this.sides[color].moves;
  }

  /** The period `color` is in (0-based, counting repeats). */
  period(color: Color): number {
    return this.sides[color].period;
  }

  /** Starts (or resumes) the clock of `color` at time `t`. */
  start(color: Color, t: number): Result<void, ClockError> {
    const time = this.advance(t);
    if (!time.ok) return time;
    if (this.fallen) return this.flagError();
    if (this.runningSide) this.chargeRunning(t);
    this.runningSide = color;
    this.since = t;
    return ok(undefined);
  }

  /** Stops both clocks (a pause called by the arbiter, or the end of the game). */
  stop(t: number): Result<void, ClockError> {
    const time = this.advance(t);
    if (!time.ok) return time;
    this.tick(t);
    if (this.runningSide && !this.fallen) this.chargeRunning(t);
    this.runningSide = undefined;
    return ok(undefined);
  }

  /** Time left to `color` at `now` (never below zero). */
  remaining(color: Color, now: number): number {
    const side = this.sides[color];
    if (this.fallen?.color === color) return 0;
    const used = this.runningSide === color ? Math.max(0, now - this.since) : 0;
    return Math.max(0, side.remaining - used);
  }

  /** Detects a flag at `now`: the running side's time has reached zero. */
  tick(now: number): Flag | undefined {
    if (this.fallen || !this.runningSide) return this.fallen;
    const side = this.sides[this.runningSide];
    if (now - this.since >= side.remaining) {
      this.fallen = { color: this.runningSide, at: this.since + side.remaining };
    }
    return this.fallen;
  }

  /**
   * `color` completed a move (or pressed its button) at `t`: its time is charged, increments and
   * a completed period's time are added, and the other side's clock starts. A press that comes
   * after the time ran out does not count: the flag fell first (error `flag_fell`).
   */
  press(color: Color, t: number): Result<void, ClockError> {
    const time = this.advance(t);
    if (!time.ok) return time;
    if (!this.runningSide) return err({ code: 'not_started', message: 'the clock has not been started' });
    if (this.runningSide !== color) {
      return err({
        code: 'not_running',
        message: `${color}'s clock is not running (${this.runningSide} is to move)`,
      });
    }
    if (this.tick(t)) return this.flagError();
    const side = this.sides[color];
    const record: PressRecord = { color, before: { ...side }, used: t - this.since };
    this.log.push(record);
    side.remaining -= t - this.since;
    const period = this.periodAt(side.period);
    side.remaining += period.incrementMs ?? 0;
    side.moves++;
    side.movesInPeriod++;
    if (period.moves !== undefined && side.movesInPeriod >= period.moves) {
      const next = this.periodAt(side.period + 1);
      if (next !== period || this.control.repeatLast !== false) {
        side.period++;
        side.movesInPeriod = 0;
        side.remaining += next.ms;
      }
    }
    record.left = side.remaining;
    this.runningSide = opposite(color);
    this.since = t;
    return ok(undefined);
  }

  /** Time left to the side that pressed, just after each press that stands (`[%clk]` of each move). */
  leftAfterPresses(): number[] {
    return this.log.map((r) => r.left ?? 0);
  }

  /**
   * Takes back the last press at `t` (a move taken back on the board): the side now running is
   * charged its time so far; the side that pressed gets back its clock as it was before that press,
   * minus the time it had used on the move, and runs again.
   */
  takeBack(t: number): Result<void, ClockError> {
    const time = this.advance(t);
    if (!time.ok) return time;
    const last = this.log.pop();
    if (!last) return err({ code: 'not_started', message: 'no clock press to take back' });
    if (this.runningSide && !this.fallen) this.chargeRunning(t);
    this.sides[last.color] = { ...last.before, remaining: last.before.remaining - last.used };
    this.runningSide = last.color;
    this.since = t;
    return ok(undefined);
  }

  private periodAt(index: number): ClockPeriod {
    const { periods } = this.control;
    return periods[Math.min(index, periods.length - 1)]!;
  }

  private chargeRunning(t: number): void {
    const side = this.sides[this.runningSide!];
    side.remaining -= t - this.since;
    this.since = t;
  }

  private advance(t: number): Result<void, ClockError> {
    if (!Number.isFinite(t))
      return err({ code: 'time_backwards', message: `time ${t} is not a number of ms` });
    if (t < this.lastTime) {
      return err({
        code: 'time_backwards',
        message: `time ${t} is before the last clock event (${this.lastTime})`,
      });
    }
    this.lastTime = t;
    return ok(undefined);
  }

  private flagError(): Result<never, ClockError> {
    const f = this.fallen!;
    return err({ code: 'flag_fell', message: `${f.color}'s flag fell at ${f.at} ms` });
  }
}
