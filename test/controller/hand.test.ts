/**
 * The simulated hand under a late event loop: when the loop wakes up late, every timer that fell
 * due fires at once, at the late time. A capture's steps (lift, captured piece aside, set down)
 * must still come in order, each reading held long enough for the move reader to believe it —
 * otherwise the target never reads empty, the capture stays pending and the board locks up.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { defaultConfig } from '../../src/config/load.js';
import { BoardSession } from '../../src/controller/board-session.js';
import { Bus, type BusEvents } from '../../src/controller/bus.js';
import { parseSquare } from '../../src/rules/index.js';
import { BoardSimulator, SimulatedHand } from '../../src/sensors/simulator.js';
import type { Clock } from '../../src/util/clock.js';

/** A clock whose event loop is blocked for `advance(ms)`: then everything due fires, late. */
class LateClock implements Clock {
  private time = 0;
  private timers: { at: number; seq: number; fn: () => void }[] = [];
  private seq = 0;

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

  /** The loop was busy for `ms`; it wakes up at the end and runs every timer due by then. */
  block(ms: number): void {
    this.time += ms;
    for (;;) {
      const due = this.timers
        .filter((t) => t.at <= this.time)
        .sort((a, b) => a.at - b.at || a.seq - b.seq)[0];
      if (!due) return;
      this.timers = this.timers.filter((t) => t !== due);
      due.fn();
    }
  }
}

const sq = (name: string) => parseSquare(name)!;

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'xqboard-hand-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('the simulated hand with a late event loop', () => {
  it("keeps a capture's readings in order, each held at least the gap", async () => {
    const clock = new LateClock();
    const sim = new BoardSimulator({
      clock,
      heartbeatMs: 0,
      position: '4k4/9/9/9/4r4/9/9/9/4R4/3K5 w - - 0 1',
    });
    const readings: { t: number; from: string; to: string }[] = [];
    sim.subscribe((e) => {
      if (e.type === 'snapshot') readings.push({ t: e.t, from: e.cells[sq('e1')]!, to: e.cells[sq('e5')]! });
    });
    await sim.start();
    const hand = new SimulatedHand(sim, clock, 150, 60);
    const done = hand.play(sq('e1'), sq('e5'));
    // The loop is late by far more than the whole move: everything due fires at once.
    for (let i = 0; i < 4; i++) clock.block(700);
    expect(await done).toEqual({ ok: true, value: undefined });
    expect(readings.slice(1)).toEqual([
      { t: 0, from: '.', to: 'x' },
      { t: 700, from: '.', to: '.' },
      { t: 1400, from: '.', to: 'x' },
    ]);
  });

  it('a capture requested while the loop is late is recorded, and the next move after it', async () => {
    const clock = new LateClock();
    const config = defaultConfig();
    const bus = new Bus();
    const moves: string[] = [];
    bus.on('game.move', (e: BusEvents['game.move']) => moves.push(e.move.iccs));
    const sim = new BoardSimulator({ id: 'board1', clock, heartbeatMs: 0 });
    const session = new BoardSession({
      board: config.boards[0]!,
      source: sim,
      game: config.game,
      tracker: config.tracker,
      archiveDir: dir,
      bus,
      clock,
      handMs: 300,
    });
    await session.start();
    clock.block(100);
    const answers = ['h2e2', 'h9g7', 'e2e6', 'a9a8'].map((move) => session.simulate({ move }));
    for (let i = 0; i < 40; i++) {
      await new Promise((r) => setImmediate(r));
      clock.block(400);
    }
    const results = await Promise.all(answers);
    expect(results, JSON.stringify(results)).toMatchObject([
      { ok: true },
      { ok: true },
      { ok: true },
      { ok: true },
    ]);
    expect(moves).toEqual(['h2e2', 'h9g7', 'e2e6', 'a9a8']);
    await session.stop();
  });
});
