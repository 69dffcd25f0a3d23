/** Rule 4.1.4 on a simulated clock: periods, increments, repeats, sudden death, flags, takebacks. */
import { describe, expect, it } from 'vitest';
import { ChessClock, type ClockControl, parseClockControl } from '../../src/game/clock.js';
import { Game } from '../../src/game/game.js';
import { parseIccs } from '../../src/rules/index.js';

const MIN = 60_000;

function clockOf(control: ClockControl): ChessClock {
  const clock = ChessClock.create(control);
  if (!clock.ok) throw new Error(clock.error.message);
  return clock.value;
}

/** Plays `n` moves for each side, each taking `ms`, starting at time `t0`; returns the time after. */
function alternate(clock: ChessClock, n: number, ms: number, t0: number): number {
  let t = t0;
  for (let k = 0; k < n; k++) {
    for (const color of ['red', 'black'] as const) {
      t += ms;
      const pressed = clock.press(color, t);
      if (!pressed.ok) throw new Error(pressed.error.message);
    }
  }
  return t;
}

describe('chess clock', () => {
  it('runs only for the side to move and switches on a press', () => {
    const clock = clockOf({ periods: [{ ms: 10 * MIN }] });
    expect(clock.start('red', 0).ok).toBe(true);
    expect(clock.remaining('red', 3000)).toBe(10 * MIN - 3000);
    expect(clock.remaining('black', 3000)).toBe(10 * MIN);
    expect(clock.press('red', 3000).ok).toBe(true);
    expect(clock.running).toBe('black');
    expect(clock.remaining('red', 9000)).toBe(10 * MIN - 3000);
    expect(clock.remaining('black', 9000)).toBe(10 * MIN - 6000);
    // Pressing the clock of the side not running is refused.
    expect(clock.press('red', 9500)).toMatchObject({ ok: false, error: { code: 'not_running' } });
  });

  it('adds the next period when a period’s moves are completed in time', () => {
    // 2 moves in 1 minute, then 1 minute sudden death.
    const clock = clockOf({ periods: [{ moves: 2, ms: MIN }, { ms: MIN }] });
    clock.start('red', 0);
    const t = alternate(clock, 2, 20_000, 0); // each side used 40 s of its first minute
    expect(clock.period('red')).toBe(1);
    // 60 s − 40 s used + the next period's 60 s; red runs from t on.
    expect(clock.remaining('red', t)).toBe(20_000 + MIN);
    expect(clock.remaining('red', t + 5000)).toBe(15_000 + MIN);
    expect(clock.remaining('black', t + 5000)).toBe(20_000 + MIN);
  });

  it('repeats the last period with a move count', () => {
    const clock = clockOf({ periods: [{ moves: 1, ms: 10_000 }] });
    clock.start('red', 0);
    const t = alternate(clock, 3, 4000, 0);
    // Each move completes a period: +10 s each time, 4 s used each time.
    expect(clock.remaining('red', t)).toBe(10_000 + 3 * (10_000 - 4000));
    expect(clock.period('red')).toBe(3);
  });

  it('without repeating, the time left becomes a sudden death', () => {
    const clock = clockOf({ periods: [{ moves: 1, ms: 10_000 }], repeatLast: false });
    clock.start('red', 0);
    const t = alternate(clock, 3, 2000, 0);
    expect(clock.remaining('red', t)).toBe(10_000 - 3 * 2000);
  });

  it('adds a Fischer increment after each move', () => {
    const clock = clockOf({ periods: [{ ms: MIN, incrementMs: 5000 }] });
    clock.start('red', 0);
    const t = alternate(clock, 4, 3000, 0);
    expect(clock.remaining('red', t)).toBe(MIN + 4 * (5000 - 3000));
    expect(clock.moves('red')).toBe(4);
  });

  it('the flag falls when the time runs out before the period’s moves are made', () => {
    const clock = clockOf({ periods: [{ moves: 3, ms: 10_000 }, { ms: MIN }] });
    clock.start('red', 0);
    alternate(clock, 2, 4000, 0); // red has 2 s left for its third move
    expect(clock.tick(17_999)).toBeUndefined();
    expect(clock.remaining('red', 17_999)).toBe(1);
    expect(clock.tick(18_000)).toEqual({ color: 'red', at: 18_000 });
  });

  it('a move completed after the flag fell does not count (flag in the middle of a move)', () => {
    const clock = clockOf({ periods: [{ ms: 5000 }] });
    clock.start('red', 0);
    // Nobody looked at the clock while red was thinking: the press at 7 s finds the flag down at 5 s.
    expect(clock.press('red', 7000)).toMatchObject({ ok: false, error: { code: 'flag_fell' } });
    expect(clock.flag).toEqual({ color: 'red', at: 5000 });
    expect(clock.moves('red')).toBe(0);
  });

  it('a take-back gives the clock back to the side that moved, its thinking time spent', () => {
    const clock = clockOf({ periods: [{ ms: MIN, incrementMs: 2000 }] });
    clock.start('red', 0);
    clock.press('red', 10_000); // red used 10 s, +2 s
    expect(clock.takeBack(13_000).ok).toBe(true); // black ran 3 s, then the move is taken back
    expect(clock.running).toBe('red');
    expect(clock.remaining('red', 13_000)).toBe(MIN - 10_000);
    expect(clock.remaining('black', 13_000)).toBe(MIN - 3000);
    expect(clock.moves('red')).toBe(0);
  });

  it('refuses times that go backwards and bad controls', () => {
    const clock = clockOf({ periods: [{ ms: MIN }] });
    clock.start('red', 5000);
    expect(clock.press('red', 4000)).toMatchObject({ ok: false, error: { code: 'time_backwards' } });
    expect(ChessClock.create({ periods: [] }).ok).toBe(false);
    expect(ChessClock.create({ periods: [{ ms: MIN }, { moves: 40, ms: MIN }] }).ok).toBe(false);
    expect(ChessClock.create({ periods: [{ moves: 0, ms: MIN }] }).ok).toBe(false);
  });

  it('reads controls like "40/7200+30, 1800"', () => {
    expect(parseClockControl('40/7200+30, 1800')).toEqual({
      ok: true,
      value: { periods: [{ moves: 40, ms: 7_200_000, incrementMs: 30_000 }, { ms: 1_800_000 }] },
    });
    expect(parseClockControl('forty moves')).toMatchObject({ ok: false, error: { code: 'bad_control' } });
  });
});

describe('the clock in a game', () => {
  const move = (text: string) => {
    const m = parseIccs(text);
    if (!m.ok) throw new Error(m.error.message);
    return m.value;
  };

  it('a flag that falls in the middle of a move loses on time and refuses the move (4.1.4)', () => {
    const game = Game.start(undefined, { clock: { periods: [{ moves: 2, ms: 10_000 }, { ms: MIN }] } });
    if (!game.ok) throw new Error(game.error.message);
    const g = game.value;
    expect(g.startClock(0).ok).toBe(true);
    expect(g.play(move('h2e2'), 4000).ok).toBe(true);
    expect(g.play(move('h9g7'), 5000).ok).toBe(true);
    expect(g.tick(9000)).toBeUndefined();
    // Red has 6 s left from 5 s for its second move and completes it at 12 s: too late, the flag
    // fell at 11 s.
    const late = g.play(move('h0g2'), 12_000);
    expect(late).toMatchObject({ ok: false, error: { code: 'game_over' } });
    expect(g.outcome).toMatchObject({
      result: '0-1',
      reason: 'time',
      article: '4.1.4',
      loser: 'red',
      t: 11_000,
    });
    expect(g.moves).toHaveLength(2);
  });

  it('completing the period in time goes on', () => {
    const game = Game.start(undefined, { clock: { periods: [{ moves: 2, ms: 10_000 }, { ms: MIN }] } });
    if (!game.ok) throw new Error(game.error.message);
    const g = game.value;
    g.startClock(0);
    g.play(move('h2e2'), 4000);
    g.play(move('h9g7'), 5000);
    expect(g.play(move('h0g2'), 10_999).ok).toBe(true);
    // Red made its 2 moves with 1 ms to spare: a minute more. Black still owes one move by 20 s.
    expect(g.clock?.remaining('red', 15_000)).toBe(1 + MIN);
    expect(g.tick(19_998)).toBeUndefined();
    expect(g.tick(19_999)).toMatchObject({ result: '1-0', reason: 'time', loser: 'black' });
  });

  it('tick ends the game when the running side’s time is gone; flag() checks the claim', () => {
    const game = Game.start(undefined, { clock: { periods: [{ ms: 5000 }] } });
    if (!game.ok) throw new Error(game.error.message);
    const g = game.value;
    g.startClock(0);
    expect(g.flag('red', 4000)).toMatchObject({ ok: false, error: { code: 'not_flagged' } });
    expect(g.tick(4999)).toBeUndefined();
    expect(g.tick(5000)).toMatchObject({ result: '0-1', reason: 'time' });
  });

  it('with clock buttons, only a button switches the clock', () => {
    const game = Game.start(undefined, { clock: { periods: [{ ms: MIN }] }, clockSwitch: 'button' });
    if (!game.ok) throw new Error(game.error.message);
    const g = game.value;
    g.startClock(0);
    g.play(move('h2e2'), 3000);
    expect(g.clock?.running).toBe('red');
    expect(g.pressClock('red', 4000).ok).toBe(true);
    expect(g.clock?.running).toBe('black');
    expect(g.clock?.remaining('red', 4000)).toBe(MIN - 4000);
  });

  it('without a clock of its own, the game takes an outside clock’s flag', () => {
    const game = Game.start();
    if (!game.ok) throw new Error(game.error.message);
    expect(game.value.flag('black', 1000)).toMatchObject({
      ok: true,
      value: { result: '1-0', reason: 'time' },
    });
  });
});
