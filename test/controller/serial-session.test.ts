/**
 * A board session on a serial board (the real serialport stack on the mock binding, the simulated
 * firmware at the far end) that answers the handshake with another protocol version: the board is
 * announced offline with the reason, the session logs it, and the port is tried again like after
 * any fault — once the right firmware answers, the board comes online and its game starts.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Bus, type BusEvents } from '../../src/controller/bus.js';
import { defaultSetup } from '../../src/rules/index.js';
import { SerialSource } from '../../src/sensors/serial.js';
import { cellsOf } from '../../src/sensors/snapshot.js';
import { ManualClock } from '../../src/util/clock.js';
import { type Logger, silentLogger } from '../../src/util/log.js';
import { boardSession } from '../helpers/sim-session.js';
import { ProtocolDevice } from '../sensors/devices/protocol-device.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'xqboard-serial-session-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

async function until(cond: () => boolean): Promise<void> {
  while (!cond()) await new Promise((r) => setImmediate(r));
}

describe('a serial board of another protocol version', { timeout: 20_000 }, () => {
  it('is announced offline with the reason, logged, and tried again until the right one answers', async () => {
    const clock = new ManualClock(0);
    const device = new ProtocolDevice({ cells: cellsOf(defaultSetup().board, 'occupancy'), proto: 2 });
    const source = new SerialSource({
      id: 'board1',
      path: device.link.path,
      binding: device.link.binding,
      sensing: 'occupancy',
      clock,
    });
    const bus = new Bus();
    const availability: BusEvents['board.availability'][] = [];
    bus.on('board.availability', (e) => availability.push(e));
    const warnings: string[] = [];
    const logger: Logger = {
      ...silentLogger,
      warn: (m: string) => void warnings.push(m),
      error: (m: string) => void warnings.push(m),
      child: () => logger,
    };
    const session = boardSession(dir, source, { clock, bus, logger });
    try {
      await session.start();
      expect(availability.at(-1)).toMatchObject({
        online: false,
        reason: expect.stringMatching(/protocol 2/),
      });
      expect(warnings.some((w) => /^link down: board speaks protocol 2/.test(w))).toBe(true);
      // The right firmware is flashed; the next try (after the backoff) finds it.
      device.proto = 1;
      clock.advance(250);
      await until(() => availability.at(-1)?.online === true);
      clock.advance(1000);
      await until(() => session.currentPhase === 'playing');
    } finally {
      await session.stop();
    }
  });
});
