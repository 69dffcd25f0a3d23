import { describe, expect, it } from 'vitest';
import { defaultSetup, INITIAL_FEN, parseSquare } from '../../src/rules/index.js';
import { parseSensorLog, SensorLogWriter } from '../../src/sensors/sensor-log.js';
import { BoardSimulator, renderBoard, renderCells } from '../../src/sensors/simulator.js';
import { cellsOf, EMPTY_CELLS, type Sensing } from '../../src/sensors/snapshot.js';
import type { SensorEvent } from '../../src/sensors/source.js';
import { ManualClock } from '../../src/util/clock.js';

const sq = (name: string): number => parseSquare(name)!;
const START = (s: Sensing) => cellsOf(defaultSetup().board, s);
const withCell = (cells: string, name: string, c: string): string => {
  const i = sq(name);
  return cells.slice(0, i) + c + cells.slice(i + 1);
};

async function started(sensing: Sensing = 'occupancy', position?: string) {
  const clock = new ManualClock(0);
  const sim = new BoardSimulator({ sensing, clock, heartbeatMs: 1000, ...(position ? { position } : {}) });
  const events: SensorEvent[] = [];
  sim.subscribe((e) => events.push(e));
  await sim.start();
  return {
    sim,
    clock,
    events,
    snapshots: () => events.flatMap((e) => (e.type === 'snapshot' ? [e.cells] : [])),
  };
}

describe('BoardSimulator', () => {
  it('does nothing before start, then reports the link and the board', async () => {
    const clock = new ManualClock(0);
    const sim = new BoardSimulator({ clock });
    const events: SensorEvent[] = [];
    sim.subscribe((e) => events.push(e));
    sim.lift(sq('h2'));
    sim.place(sq('h2'));
    clock.advance(5000);
    expect(events).toEqual([]);
    expect(clock.pending()).toEqual([]);
    await sim.start();
    expect(events).toEqual([
      { type: 'link', t: 5000, up: true },
      { type: 'snapshot', t: 5000, cells: START('occupancy') },
    ]);
    expect(sim.health()).toEqual({ badFrames: 0, snapshots: 1, reconnects: 0, linkUp: true });
  });

  it('emits a snapshot on every change: lift, then place elsewhere', async () => {
    const { sim, clock, snapshots } = await started();
    clock.advance(10);
    expect(sim.lift(sq('h2'))).toEqual({ ok: true, value: { color: 'red', role: 'cannon' } });
    expect(sim.hand).toEqual([{ color: 'red', role: 'cannon' }]);
    clock.advance(10);
    expect(sim.place(sq('e2')).ok).toBe(true);
    const lifted = withCell(START('occupancy'), 'h2', '.');
    expect(snapshots()).toEqual([START('occupancy'), lifted, withCell(lifted, 'e2', 'x')]);
    expect(sim.pieceAt(sq('e2'))).toEqual({ color: 'red', role: 'cannon' });
    expect(sim.hand).toEqual([]);
  });

  it('refuses impossible handling with an error, and emits nothing for it', async () => {
    const { sim, events } = await started();
    const before = events.length;
    expect(sim.lift(sq('e4'))).toMatchObject({ ok: false, error: { code: 'empty_square' } });
    expect(sim.place(sq('e4'))).toMatchObject({ ok: false, error: { code: 'empty_hand' } });
    expect(sim.place(sq('a0'), { color: 'red', role: 'pawn' })).toMatchObject({
      ok: false,
      error: { code: 'occupied', message: 'a0 already holds a red chariot' },
    });
    expect(sim.lift(90)).toMatchObject({ ok: false, error: { code: 'bad_square' } });
    expect(sim.setPosition('nonsense')).toMatchObject({ ok: false, error: { code: 'bad_fen' } });
    expect(events.length).toBe(before);
  });

  it('a capture with colour sensing: in one scan the target changes colour', async () => {
    // Red cannon h2 takes the black horse h9.
    const { sim, snapshots } = await started('colour');
    const r = sim.batch(() => sim.move(sq('h2'), sq('h9')));
    expect(r.ok).toBe(true);
    expect(snapshots()).toEqual([START('colour'), withCell(withCell(START('colour'), 'h2', '.'), 'h9', 'r')]);
  });

  it('a capture with occupancy sensing: step by step, and in one scan only the origin changes', async () => {
    const step = await started('occupancy');
    step.sim.move(sq('h2'), sq('h9'));
    const lifted = withCell(START('occupancy'), 'h2', '.');
    expect(step.snapshots()).toEqual([START('occupancy'), lifted, withCell(lifted, 'h9', '.'), lifted]);

    const swap = await started('occupancy');
    swap.sim.batch(() => swap.sim.move(sq('h2'), sq('h9')));
    expect(swap.snapshots()).toEqual([START('occupancy'), lifted]);
    expect(swap.sim.pieceAt(sq('h9'))).toEqual({ color: 'red', role: 'cannon' });
  });

  it('a batch with no net change emits nothing (a touched piece put back in one scan)', async () => {
    const { sim, snapshots } = await started();
    sim.batch(() => {
      sim.lift(sq('e0'));
      sim.place(sq('e0'));
    });
    expect(snapshots()).toEqual([START('occupancy')]);
  });

  it('places pieces from the box onto an empty board (setup)', async () => {
    const { sim, snapshots } = await started('colour', '9/9/9/9/9/9/9/9/9/9 w - - 0 1');
    expect(snapshots()).toEqual([EMPTY_CELLS]);
    sim.place(sq('e0'), { color: 'red', role: 'king' });
    sim.place(sq('e9'), { color: 'black', role: 'king' });
    expect(snapshots().at(-1)).toBe(withCell(withCell(EMPTY_CELLS, 'e0', 'r'), 'e9', 'b'));
  });

  it('heartbeats on the clock, presses buttons with the clock time, and stops cleanly', async () => {
    const { sim, clock, events } = await started();
    clock.advance(2500);
    sim.press('red');
    expect(events.map((e) => `${e.type}@${e.t}`)).toEqual([
      'link@0',
      'snapshot@0',
      'snapshot@1000',
      'snapshot@2000',
      'button@2500',
    ]);
    await sim.stop();
    expect(events.at(-1)).toEqual({ type: 'link', t: 2500, up: false, reason: 'stopped' });
    expect(clock.pending()).toEqual([]);
    clock.advance(5000);
    sim.press('black');
    expect(events.length).toBe(6);
  });

  it('setPosition and clear replace the whole board', async () => {
    const { sim, snapshots } = await started('colour', '9/9/9/9/9/9/9/9/9/9 w - - 0 1');
    sim.setPosition(INITIAL_FEN);
    sim.clear();
    expect(snapshots()).toEqual([EMPTY_CELLS, START('colour'), EMPTY_CELLS]);
  });

  it('bounce: a point flickers for the given time, then reads true again', async () => {
    const { sim, clock, events } = await started();
    clock.advance(100);
    sim.bounce(sq('e3'), 20);
    sim.bounce(sq('e4'), 30);
    clock.advance(100);
    const snaps = events.filter((e) => e.type === 'snapshot');
    const s = START('occupancy');
    expect(snaps.map((e) => [e.t, e.type === 'snapshot' && e.cells])).toEqual([
      [0, s],
      [100, withCell(s, 'e3', '.')],
      [100, withCell(withCell(s, 'e3', '.'), 'e4', 'x')],
      [120, withCell(s, 'e4', 'x')],
      [130, s],
    ]);
  });

  it('slide: a chariot passes over the points between, each briefly, with overlap', async () => {
    const { sim, clock, events } = await started('colour', '4k4/9/9/9/9/9/9/9/9/R3K4 w - - 0 1');
    const done = sim.slide(sq('a0'), sq('a3'), { stepMs: 100, overlapMs: 10 });
    if (!done.ok) throw new Error(done.error.message);
    let finished = false;
    void done.value.then(() => {
      finished = true;
    });
    clock.advance(500);
    await Promise.resolve();
    expect(finished).toBe(true);
    const base = withCell(withCell(EMPTY_CELLS, 'e0', 'r'), 'e9', 'b');
    const at = (...names: string[]) => names.reduce((c, n) => withCell(c, n, 'r'), base);
    const snaps = events.flatMap((e) => (e.type === 'snapshot' ? [[e.t, e.cells]] : []));
    expect(snaps).toEqual([
      [0, at('a0')],
      [0, at('a1')],
      [100, at('a1', 'a2')],
      [110, at('a2')],
      [200, at('a2', 'a3')],
      [210, at('a3')],
    ]);
    expect(sim.pieceAt(sq('a3'))).toEqual({ color: 'red', role: 'chariot' });
    expect(sim.slide(sq('a3'), sq('b4'))).toMatchObject({ ok: false, error: { code: 'not_a_line' } });
  });

  it('what it emits, written as a sensor log, reads back the same', async () => {
    const { sim, clock, events } = await started('colour');
    clock.advance(300);
    sim.move(sq('h2'), sq('e2'));
    clock.advance(700);
    sim.press('red');
    const writer = new SensorLogWriter({ sensing: 'colour', board: sim.id });
    const lines = [writer.headerLine(), ...events.map((e) => writer.line(e))];
    const log = parseSensorLog(lines.join('\n'));
    if (!log.ok) throw new Error(log.error.message);
    expect(log.value.ignoredLines).toBe(1); // the link line
    const expected = events.filter((e) => e.type !== 'link');
    expect(log.value.events.map(({ line: _l, ...e }) => e)).toEqual(expected);
  });
});

describe('rendering', () => {
  it('draws the start position as a 9×10 grid, Red at the bottom', () => {
    expect(renderBoard(defaultSetup().board)).toBe(
      [
        '9 r n b a k a b n r',
        '8 . . . . . . . . .',
        '7 . c . . . . . c .',
        '6 p . p . p . p . p',
        '5 . . . . . . . . .',
        '4 . . . . . . . . .',
        '3 P . P . P . P . P',
        '2 . C . . . . . C .',
        '1 . . . . . . . . .',
        '0 R N B A K A B N R',
        '  a b c d e f g h i',
      ].join('\n'),
    );
  });

  it('draws Chinese pieces, traditional forms that tell the sides apart', () => {
    const lines = renderBoard(defaultSetup().board, { style: 'chinese' }).split('\n');
    expect(lines[0]).toBe('9 車 馬 象 士 將 士 象 馬 車');
    expect(lines[2]).toBe('7 ＋ 砲 ＋ ＋ ＋ ＋ ＋ 砲 ＋');
    expect(lines[9]).toBe('0 俥 傌 相 仕 帥 仕 相 傌 俥');
    expect(lines.length).toBe(11);
  });

  it('colours pieces with ANSI escapes when asked', () => {
    const text = renderBoard(defaultSetup().board, { ansi: true });
    expect(text).toContain('\x1b[31mR\x1b[0m');
    expect(text).toContain('\x1b[1mr\x1b[0m');
  });

  it('shows the pieces in hand below the board, and sensor readings as a grid', async () => {
    const sim = new BoardSimulator({ clock: new ManualClock() });
    sim.lift(sq('h2'));
    expect(sim.render().split('\n').slice(-2)).toEqual(['  a b c d e f g h i', 'in hand: C']);
    expect(renderCells(sim.cells).split('\n')[7]).toBe('2 . x . . . . . . .');
  });
});
