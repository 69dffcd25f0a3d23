/**
 * The diode-matrix build (build/xqboard-matrix.elf, `-DXQ_MATRIX=1`): reed switches in a 10 x 9
 * matrix instead of the 74HC165 chain. The harness plays the matrix on the pins of
 * firmware-bridge/xqboard/pins.h (rows = ranks driven low one at a time, columns = files read
 * through their pull-ups), and the snapshots are read by the real serial driver
 * (src/sensors/serial.ts) as the controller would.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultSetup, parseFen } from '../../src/rules/index.js';
import { SerialSource } from '../../src/sensors/serial.js';
import { type Cells, cellsOf, EMPTY_CELLS } from '../../src/sensors/snapshot.js';
import { EventLog } from '../sensors/devices/events.js';
import { make, SimHarness } from './harness.js';

const occupancyOf = (fen: string): Cells => {
  const setup = parseFen(fen);
  if (!setup.ok) throw new Error(setup.error.message);
  return cellsOf(setup.value.board, 'occupancy');
};

beforeAll(() => {
  make('firmware', 'sim');
}, 300_000);

describe('diode-matrix firmware in simavr, read by the serial driver', () => {
  let sim: SimHarness;
  let source: SerialSource;
  let log: EventLog;

  beforeAll(async () => {
    sim = new SimHarness('xqboard-matrix');
    source = new SerialSource({ id: 'matrix-1', path: await sim.ptyPath, sensing: 'occupancy' });
    log = new EventLog(source);
    const starting = source.start();
    await sim.command('start'); // the driver repeats HELLO until the board answers
    await starting;
    await log.latestOrNext('link', (e) => e.up);
  });
  afterAll(async () => {
    await source?.stop();
    await sim?.stop();
  });

  it('handshakes as the matrix build and reports an empty board', async () => {
    expect(source.health().board).toMatchObject({
      boardId: 'xqb-mega-matrix',
      sensing: 'occupancy',
      leds: true,
      buttons: true,
    });
    expect((await log.latestOrNext('snapshot')).cells).toBe(EMPTY_CELLS);
  });

  it('sends exactly the board the switches see, for one position after another', async () => {
    const positions = [
      defaultSetup().board,
      'rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b - - 1 1',
      'r1bakab1r/9/1cn3nc1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C1N2/9/RNBAKAB1R w - - 4 3',
      '3k5/4a4/9/9/9/9/9/9/4A4/4K4 w - - 0 1',
    ].map((p) => (typeof p === 'string' ? occupancyOf(p) : cellsOf(p, 'occupancy')));
    // Every point closed at once: with a diode per switch there is no ghosting to hide.
    positions.push('x'.repeat(90));
    // One rank and one file alone: rows and columns are not swapped or shifted.
    positions.push('.'.repeat(45) + 'x'.repeat(9) + '.'.repeat(36));
    positions.push(Array.from({ length: 90 }, (_, i) => (i % 9 === 8 ? 'x' : '.')).join(''));
    positions.push(EMPTY_CELLS);
    for (const cells of positions) {
      const seen = log.next('snapshot', (e) => e.cells === cells);
      await sim.command(`set ${cells}`);
      expect((await seen).cells).toBe(cells);
    }
    expect(source.health().badFrames).toBe(0);
  });

  it('debounces a one-scan flicker away and reports a held lift', async () => {
    const start = cellsOf(defaultSetup().board, 'occupancy');
    const set = log.next('snapshot', (e) => e.cells === start);
    await sim.command(`set ${start}`);
    await set;
    // Rows are read one after another: a change in the middle of a read reaches the later rows one
    // scan earlier, so the board may send an in-between snapshot first. Let it settle.
    await sim.elapse(50);
    const before = log.events.length;
    await sim.command('glitch 4 4000'); // the king's square, shorter than the 3 scans of debounce
    await sim.elapse(50);
    expect(log.events.slice(before).filter((e) => e.type === 'snapshot' && e.cells !== start)).toEqual([]);
    const lifted = `${start.slice(0, 4)}.${start.slice(5)}`;
    const seen = log.next('snapshot', (e) => e.cells === lifted);
    await sim.command('glitch 4 30000');
    await seen;
  });

  it('scans at 200 Hz; one matrix read takes well under a scan period', async () => {
    const a = await sim.stats();
    await sim.elapse(1000);
    const b = await sim.stats();
    const rate = ((b.scans - a.scans) * 1000) / (b.simMs - a.simMs);
    console.log(
      `matrix build: ${rate.toFixed(1)} scans/s (simulated time), one 10-row read ${b.chainReadUs} us`,
    );
    expect(rate).toBeGreaterThan(198);
    expect(rate).toBeLessThan(202);
    // Ten rows with 20 us of settling each (pins.h), 90 column reads through the core's callbacks,
    // and whatever interrupts come in between: a small part of the 5 ms period.
    expect(b.chainReadUs).toBeGreaterThan(10 * 20);
    expect(b.chainReadUs).toBeLessThan(1000);
  });

  it('takes LED frames too (same driver as the chain build)', async () => {
    const seq = source.send({ type: 'led_frame', rgb: new Uint8Array(270).fill(255) });
    expect(seq).toBeDefined();
    // 283 bytes at 115200 baud, then the next slot between scans.
    let cap = await sim.leds();
    expect(cap.frames).toBe(1); // the dark frame at boot
    for (let i = 0; i < 50 && cap.frames === 1; i++) {
      await sim.elapse(10);
      cap = await sim.leds();
    }
    expect(cap.frames).toBe(2);
    expect(cap.grb).toEqual(new Uint8Array(270).fill(128));
  });
});
