import type { Clock } from '../util/clock.js';
/** xstate's timer interface over the drivers' `Clock`, so the machine runs in log time or real time. */

export interface XstateClock {
  setTimeout(fn: (...args: unknown[]) => void, timeout: number): unknown;
  clearTimeout(id: unknown): void;
}

export function xstateClock(clock: Clock): XstateClock {
  return {
    setTimeout: (fn, ms) => clock.setTimer(fn, ms),
    clearTimeout: (cancel) => (cancel as () => void)(),
  };
}
