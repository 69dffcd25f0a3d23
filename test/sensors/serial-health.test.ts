/** Sensor health: flicker and never-changed counts, fed directly and from the serial source. */
import { afterEach, describe, expect, it } from 'vitest';
import { defaultSetup, parseSquare } from '../../src/rules/index.js';
import { renderHealth, SensorHealth } from '../../src/sensors/health.js';
import { SerialSource } from '../../src/sensors/serial.js';
import { cellsOf, EMPTY_CELLS } from '../../src/sensors/snapshot.js';
import { ManualClock } from '../../src/util/clock.js';
import { EventLog } from './devices/events.js';
import { ProtocolDevice } from './devices/protocol-device.js';

const START = cellsOf(defaultSetup().board, 'occupancy');
const sq = (name: string) => parseSquare(name)!;
const set = (cells: string, name: string, c: string) =>
  cells.slice(0, sq(name)) + c + cells.slice(sq(name) + 1);

describe('SensorHealth', () => {
  it('counts a change undone within the window as a flicker, a slow one as two changes', () => {
    const h = new SensorHealth({ flickerMs: 60 });
    h.snapshot(0, START);
    h.snapshot(100, set(START, 'h2', '.')); // lift
    h.snapshot(130, START); // back within 30 ms: flicker
    h.snapshot(500, set(START, 'e4', 'x')); // a piece put down…
    h.snapshot(700, START); // …and taken away 200 ms later: not a flicker
    h.snapshot(800, set(START, 'a0', '.'));
    h.snapshot(860, START); // exactly 60 ms: still a flicker
    const r = h.report();
    expect(r.points[sq('h2')]).toEqual({ square: sq('h2'), changes: 2, flickers: 1 });
    expect(r.points[sq('e4')]).toEqual({ square: sq('e4'), changes: 2, flickers: 0 });
    expect(r.flickering).toEqual([sq('a0'), sq('h2')]);
    expect(r.neverChanged.length).toBe(87);
  });

  it('renders the report as the board', () => {
    const h = new SensorHealth();
    let cells = EMPTY_CELLS;
    // a sweep over every intersection except i9, with e2 chattering three times
    for (let s = 0; s < 89; s++) {
      cells = `${cells.slice(0, s)}x${cells.slice(s + 1)}`;
      h.snapshot(s * 100, cells);
    }
    for (let k = 0; k < 3; k++) {
      h.snapshot(10_000 + k * 100, set(cells, 'e2', '.'));
      h.snapshot(10_000 + k * 100 + 10, cells);
    }
    expect(renderHealth(h.report(), 'board-1')).toBe(
      [
        'board-1: 95 snapshots over 10.2 s, flicker = change undone within 60 ms',
        '     a  b  c  d  e  f  g  h  i',
        '  9  ·  ·  ·  ·  ·  ·  ·  ·  -',
        '  8  ·  ·  ·  ·  ·  ·  ·  ·  ·',
        '  7  ·  ·  ·  ·  ·  ·  ·  ·  ·',
        '  6  ·  ·  ·  ·  ·  ·  ·  ·  ·',
        '  5  ·  ·  ·  ·  ·  ·  ·  ·  ·',
        '    ~~~~~~~~~~~~~~~~~~~~~~~~~~~',
        '  4  ·  ·  ·  ·  ·  ·  ·  ·  ·',
        '  3  ·  ·  ·  ·  ·  ·  ·  ·  ·',
        '  2  ·  ·  ·  ·  3  ·  ·  ·  ·',
        '  1  ·  ·  ·  ·  ·  ·  ·  ·  ·',
        '  0  -  ·  ·  ·  ·  ·  ·  ·  ·',
        'flickering: e2×3',
        'never changed: 2 (a0 i9)',
        'legend: · changed normally   - never changed   N flickers (+ ten or more)',
      ].join('\n'),
    );
  });
});

describe('SensorHealth fed by the serial source', () => {
  let stop: (() => Promise<void>) | undefined;
  afterEach(async () => {
    await stop?.();
  });

  it('finds the chattering reed switch on a board over the real serial stack', async () => {
    const clock = new ManualClock(0);
    const sim = new ProtocolDevice({ cells: START });
    const source = new SerialSource({
      id: 'b',
      path: sim.link.path,
      binding: sim.link.binding,
      sensing: 'occupancy',
      clock,
    });
    stop = () => source.stop();
    const health = new SensorHealth({ flickerMs: 60 });
    health.watch(source);
    const log = new EventLog(source);
    await source.start();
    await log.latestOrNext('snapshot');

    const step = async (ms: number, cells: string) => {
      clock.advance(ms);
      const seen = log.next('snapshot', (e) => e.cells === cells);
      sim.setCells(cells);
      await seen;
    };
    for (let k = 0; k < 4; k++) {
      await step(500, set(START, 'c3', '.')); // c3's magnet drops out…
      await step(20, START); // …and is back 20 ms later
    }
    await step(500, set(START, 'h2', '.')); // a real move: h2 → e2
    await step(400, set(set(START, 'h2', '.'), 'e2', 'x'));

    const r = health.report();
    expect(r.flickering).toEqual([sq('c3')]);
    expect(r.points[sq('c3')]!.flickers).toBe(4);
    expect(r.points[sq('h2')]).toMatchObject({ changes: 1, flickers: 0 });
    expect(renderHealth(r)).toContain('flickering: c3×4');
  });
});
