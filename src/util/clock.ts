/**
 * Time as drivers see it: a reading and one-shot timers. Injected so tests and simulations drive
 * time themselves (`ManualClock`) while the real stack around them keeps its own event loop.
 */
export interface Clock {
  /** Milliseconds, monotonic enough for intervals; the `t` of events. */
  now(): number;
  /** Runs `fn` once after `ms`; returns the function that cancels it. */
  setTimer(fn: () => void, ms: number): () => void;
}

export const systemClock: Clock = {
  now: () => Date.now(),
  setTimer(fn, ms) {
    const handle = setTimeout(fn, ms);
    return () => clearTimeout(handle);
  },
};

interface PendingTimer {
  at: number;
  seq: number;
  fn: () => void;
}

/** A clock that moves only when told to: `advance(ms)` fires due timers in order. */
export class ManualClock implements Clock {
  private time: number;
  private seq = 0;
  private timers: PendingTimer[] = [];

  constructor(start = 0) {
    this.time = start;
  }

  now(): number {
    return this.time;
  }

  setTimer(fn: () => void, ms: number): () => void {
    const timer = { at: this.time + Math.max(0, ms), seq: this.seq++, fn };
    this.timers.push(timer);
    return () => {
      const k = this.timers.indexOf(timer);
      if (k >= 0) this.timers.splice(k, 1);
    };
  }

  /** Delays (from now) of the timers still pending, soonest first. */
  pending(): number[] {
    return this.timers.map((t) => t.at - this.time).sort((a, b) => a - b);
  }

  advance(ms: number): void {
    const end = this.time + ms;
    for (;;) {
      // The soonest due timer, the first set among those due at the same time (one pass, no copies:
      // replays run every frame's timers through here).
      let due: PendingTimer | undefined;
      let at = -1;
      const timers = this.timers;
      for (let k = 0; k < timers.length; k++) {
        const t = timers[k]!;
        if (t.at <= end && (due === undefined || t.at < due.at || (t.at === due.at && t.seq < due.seq))) {
          due = t;
          at = k;
        }
      }
      if (!due) break;
      timers.splice(at, 1);
      this.time = due.at;
      due.fn();
    }
    this.time = end;
  }
}
