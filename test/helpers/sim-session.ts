/** A board session on the simulator, in simulated time, for tests of what it records. */
import { expect } from 'vitest';
import { defaultConfig } from '../../src/config/load.js';
import type { GameConfig } from '../../src/config/schema.js';
import { BoardSession } from '../../src/controller/board-session.js';
import { Bus } from '../../src/controller/bus.js';
import { parseIccs } from '../../src/rules/index.js';
import { BoardSimulator } from '../../src/sensors/simulator.js';
import type { SensorSource } from '../../src/sensors/source.js';
import { ManualClock } from '../../src/util/clock.js';
import { type Logger, silentLogger } from '../../src/util/log.js';

export interface SimSession {
  readonly clock: ManualClock;
  readonly sim: BoardSimulator;
  readonly bus: Bus;
  readonly session: BoardSession;
}

/** A session of board `board1` (the default configuration) on any source, in `archiveDir`. */
export function boardSession(
  archiveDir: string,
  source: SensorSource,
  options: { clock: ManualClock; bus: Bus; logger?: Logger; game?: Partial<GameConfig> },
): BoardSession {
  const config = defaultConfig();
  Object.assign(config.game, options.game);
  return new BoardSession({
    board: config.boards[0]!,
    source,
    game: config.game,
    tracker: config.tracker,
    archiveDir,
    bus: options.bus,
    clock: options.clock,
    logger: options.logger ?? silentLogger,
  });
}

/** Board `board1` on a simulator in `archiveDir`; a listener that fails fails the test. */
export function simSession(
  archiveDir: string,
  options: { clock?: ManualClock; logger?: Logger; game?: Partial<GameConfig> } = {},
): SimSession {
  const clock = options.clock ?? new ManualClock(1_000_000);
  const bus = new Bus((event, e) => {
    throw new Error(`listener of ${event} failed: ${String(e)}`);
  });
  const sim = new BoardSimulator({ id: 'board1', clock, heartbeatMs: 1000 });
  const session = boardSession(archiveDir, sim, {
    clock,
    bus,
    ...(options.logger ? { logger: options.logger } : {}),
    ...(options.game ? { game: options.game } : {}),
  });
  return { clock, sim, bus, session };
}

/** A hand playing a move: lift, (captured piece aside), set down, then the players' pace. */
export function playMove(r: Pick<SimSession, 'clock' | 'sim'>, iccs: string): void {
  const m = parseIccs(iccs);
  if (!m.ok) throw new Error(iccs);
  expect(r.sim.lift(m.value.from).ok).toBe(true);
  r.clock.advance(120);
  if (r.sim.pieceAt(m.value.to)) r.sim.remove(m.value.to);
  expect(r.sim.place(m.value.to).ok).toBe(true);
  r.clock.advance(500);
}
