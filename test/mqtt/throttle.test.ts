/**
 * Failed logins from one address are answered one after another, later each time, whether they
 * come in turn or all at once; past 30 s of answers owed the address is locked out (refused
 * unchecked), so a guesser gets at most one password checked every 5 s.
 */
import { describe, expect, it } from 'vitest';
import { LoginThrottle } from '../../src/mqtt/access.js';

describe('LoginThrottle', () => {
  it('answers guesses made in parallel no sooner than guesses made in turn', () => {
    const throttle = new LoginThrottle();
    // 100 wrong passwords at the same instant: the answers are spread out, 0.5 s more each time.
    const waits: number[] = [];
    for (let i = 0; i < 100 && !throttle.locked('a', 0); i++) waits.push(throttle.failed('a', 0));
    expect(waits.slice(0, 4)).toEqual([500, 1500, 3000, 5000]);
    for (let i = 1; i < waits.length; i++) expect(waits[i]! - waits[i - 1]!).toBeGreaterThanOrEqual(500);
    // Locked out once 30 s of answers are owed: only 11 passwords were checked.
    expect(waits.length).toBe(11);
    expect(throttle.locked('a', 0)).toBe(true);
    // Another address is not held up.
    expect(throttle.locked('b', 0)).toBe(false);
    expect(throttle.failed('b', 0)).toBe(500);
  });

  it('a guesser gets at most one password checked every 5 s, and is forgotten after a quiet minute', () => {
    const throttle = new LoginThrottle();
    let checked = 0;
    // One attempt every 10 ms for 10 minutes, each made only when not locked out.
    for (let t = 0; t < 600_000; t += 10) {
      if (throttle.locked('a', t)) continue;
      throttle.failed('a', t);
      checked++;
    }
    expect(checked).toBeLessThanOrEqual(600_000 / 5000 + 11);
    const quiet = 600_000 + 120_000;
    expect(throttle.locked('a', quiet)).toBe(false);
    expect(throttle.failed('a', quiet)).toBe(500);
  });
});
