/**
 * `bridge/health` of a board: the link's counts, and the sensors' — a square the move reader
 * takes for dead (named, and the game starts anyway) and the squares that flicker.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { Bus } from '../../src/controller/bus.js';
import { INITIAL_FEN, parseSquare } from '../../src/rules/index.js';
import { BoardSimulator } from '../../src/sensors/simulator.js';
import type { SensorListener, SensorSource, SourceHealth } from '../../src/sensors/source.js';
import { ManualClock } from '../../src/util/clock.js';
import { boardSession } from '../helpers/sim-session.js';

/** The simulated board with one sensor dead: it always reads empty (hardware, not our code). */
class DeadSensor implements SensorSource {
  readonly id: string;
  readonly sensing;
  constructor(
    private readonly board: BoardSimulator,
    private readonly square: number,
  ) {
    this.id = board.id;
    this.sensing = board.sensing;
  }
  start = () => this.board.start();
  stop = () => this.board.stop();
  health = (): SourceHealth => this.board.health();
  subscribe(listener: SensorListener): () => void {
    return this.board.subscribe((e) =>
      listener(
        e.type === 'snapshot'
          ? { ...e, cells: `${e.cells.slice(0, this.square)}.${e.cells.slice(this.square + 1)}` }
          : e,
      ),
    );
  }
}

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

describe('board health', () => {
  it('names a dead sensor the board uses, lets the game start, and counts flickers', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'xqboard-health-'));
    dirs.push(dir);
    const clock = new ManualClock(1_000_000);
    const sim = new BoardSimulator({ id: 'board1', clock, heartbeatMs: 1000 });
    const a3 = parseSquare('a3')!;
    const session = boardSession(dir, new DeadSensor(sim, a3), { clock, bus: new Bus() });
    await session.start();
    try {
      expect(sim.setPosition(INITIAL_FEN).ok).toBe(true);
      for (let k = 0; k < 40; k++) clock.advance(100);
      // The soldier on a3 stands there, its sensor reads nothing: the game starts all the same.
      expect(session.view().status).toBe('playing');
      expect(session.alerts().find((a) => a.kind === 'sensor_fault')).toMatchObject({ square: 'a3' });
      expect(session.health().sensors.suspectedDead).toEqual([{ square: 'a3', reads: 'empty' }]);

      // A loose magnet: the horse on b0 reads empty for 20 ms, twice.
      for (let k = 0; k < 2; k++) {
        expect(sim.bounce(parseSquare('b0')!, 20).ok).toBe(true);
        clock.advance(500);
      }
      const { sensors } = session.health();
      expect(sensors.flickering).toEqual([{ square: 'b0', flickers: 2 }]);
      expect(sensors.snapshots).toBeGreaterThan(0);
      expect(session.view().moves).toEqual([]);
    } finally {
      await session.stop();
    }
  });
});
