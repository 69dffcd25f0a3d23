/**
 * A move made while the cable is out is not lost: the serial driver (real serialport stack on the
 * mock binding, the simulated firmware on the far end) reconnects, the board's full snapshot
 * arrives, and the move reader records the move it shows — once.
 */
import { describe, expect, it } from 'vitest';
import { Game } from '../../src/game/game.js';
import { defaultSetup, parseSquare } from '../../src/rules/index.js';
import { SerialSource } from '../../src/sensors/serial.js';
import { cellsOf } from '../../src/sensors/snapshot.js';
import { DEFAULT_TRACKER_OPTIONS } from '../../src/tracker/machine.js';
import { Tracker } from '../../src/tracker/tracker.js';
import { ManualClock } from '../../src/util/clock.js';
import { EventLog } from '../sensors/devices/events.js';
import { ProtocolDevice } from '../sensors/devices/protocol-device.js';

const START = cellsOf(defaultSetup().board, 'occupancy');
const withCell = (cells: string, square: string, c: string): string => {
  const at = parseSquare(square)!;
  return cells.slice(0, at) + c + cells.slice(at + 1);
};

/** Lets the real I/O (stream reads, nextTicks) run until `cond` holds. */
async function until(cond: () => boolean): Promise<void> {
  while (!cond()) await new Promise((r) => setImmediate(r));
}

describe('move reader over the serial link', { timeout: 20_000 }, () => {
  it.each([true, false])(
    'a move completed while unplugged is recorded after reconnect (board resets on open: %s)',
    async (resetOnOpen) => {
      const clock = new ManualClock(0);
      const sim = new ProtocolDevice({ cells: START, resetOnOpen });
      const source = new SerialSource({
        id: 'board-1',
        path: sim.link.path,
        binding: sim.link.binding,
        sensing: 'occupancy',
        clock,
      });
      const game = Game.start();
      if (!game.ok) throw new Error(game.error.message);
      const tracker = new Tracker(game.value, { ...DEFAULT_TRACKER_OPTIONS, sensing: 'occupancy' }, clock);
      source.subscribe((e) => tracker.send(e));
      tracker.start();
      const log = new EventLog(source);
      try {
        await source.start();
        await until(() => log.of('snapshot').length >= 1);
        clock.advance(1000);
        await until(() => tracker.state !== undefined && JSON.stringify(tracker.state).includes('playing'));

        // Red plays b0c2 and h2e2; the cannon is lifted, then the cable comes out.
        sim.setCells(withCell(START, 'b0', '.'));
        await log.next('snapshot');
        clock.advance(300);
        const afterHorse = withCell(withCell(START, 'b0', '.'), 'c2', 'x');
        sim.setCells(afterHorse);
        await log.next('snapshot');
        clock.advance(100);
        expect(game.value.moves.map((m) => m.iccs)).toEqual(['b0c2']);

        // Black replies h9g7, then the cable is pulled while the horse is in the air …
        const lifted = withCell(afterHorse, 'h9', '.');
        sim.setCells(lifted);
        await log.next('snapshot');
        const down = log.next('link', (e) => !e.up);
        sim.link.unplug();
        await down;
        // … and lands on g7 while nobody listens.
        sim.setCells(withCell(lifted, 'g7', 'x'));
        clock.advance(1000);
        expect(game.value.moves.map((m) => m.iccs)).toEqual(['b0c2']);

        // The driver retries with backoff; time goes on until it is back.
        sim.link.plug();
        while (!log.of('link').at(-1)?.up) {
          clock.advance(250);
          await new Promise((r) => setImmediate(r));
        }
        await until(() => log.of('snapshot').at(-1)?.cells === withCell(lifted, 'g7', 'x'));
        clock.advance(200);
        expect(game.value.moves.map((m) => m.iccs)).toEqual(['b0c2', 'h9g7']);
      } finally {
        tracker.stop();
        await source.stop();
      }
    },
  );
});
