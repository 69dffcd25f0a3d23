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
      this.timers = this.timers.filter((t) => t !== timer);
    };
  }

  /** Delays (from now) of the timers still pending, soonest first. */
  pending(): number[] {
    return this.timers.map((t) => t.at - this.time).sort((a, b) => a - b);
  }

  advance(ms: number): void {
    const end = this.time + ms;
    for (;;) {
      const due = this.timers.filter((t) => t.at <= end).sort((a, b) => a.at - b.at || a.seq - b.seq)[0];
      if (!due) break;
      this.timers = this.timers.filter((t) => t !== due);
      this.time = due.at;
      due.fn();
    }
    this.time = end;
  }
}
