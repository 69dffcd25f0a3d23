import { describe, expect, it } from 'vitest';
import { createActor } from 'xstate';
import { Position, parseSquare } from '../../src/rules/index.js';
import { createTrackerMachine, DEFAULT_TRACKER_OPTIONS } from '../../src/tracker/machine.js';
import { expectedCells } from '../../src/tracker/reader.js';
import { Readings } from '../../src/tracker/readings.js';

const at = (name: string): number => parseSquare(name)!;
const start = Position.default();
const cells = expectedCells(start, 'occupancy');
const without = (c: string, name: string): string => `${c.slice(0, at(name))}.${c.slice(at(name) + 1)}`;

describe('readings', () => {
  it('records a changed frame in place: the cells, when the board and each square changed, the lifts', () => {
    const r = new Readings('occupancy', 35, 0);
    const confirmed = r.cellsOf(start);
    r.record(100, cells, 100, confirmed);
    const squares = r.squareChangedAt;
    r.record(200, without(cells, 'b0'), 201, confirmed);
    expect(r.squareChangedAt).toBe(squares);
    expect(r.cells).toBe(without(cells, 'b0'));
    expect([r.changedAt, r.readAt, r.frameAt]).toEqual([200, 201, 200]);
    expect(r.squareChangedAt[at('b0')]).toBe(200);
    expect(r.squareChangedAt[at('c2')]).toBe(100);
    expect([...r.lifts.at(300)]).toEqual([[at('b0'), 200]]);
    r.heartbeat(400);
    expect([r.changedAt, r.frameAt]).toEqual([200, 400]);
  });

  it('keeps, for a piece first seen gone after lost frames, the soonest it may have left', () => {
    const r = new Readings('occupancy', 35, 0);
    const confirmed = r.cellsOf(start);
    r.record(100, cells, 100, confirmed);
    // Frames lost after 1000: b0 gone at 2000 may have left at 1001 already; h0, at 2100, not.
    r.record(2000, without(cells, 'b0'), 2000, confirmed, 1000);
    r.record(2100, without(without(cells, 'b0'), 'h0'), 2100, confirmed);
    expect([...r.lifts.firstAt(3000)]).toEqual([
      [at('b0'), 2000],
      [at('h0'), 2100],
    ]);
    expect([...r.lifts.departedAfterGap()]).toEqual([[at('b0'), 1001]]);
    // Set back and lifted again with every frame seen: its first departure still stands.
    r.record(2500, without(cells, 'h0'), 2500, confirmed);
    r.record(2600, without(without(cells, 'b0'), 'h0'), 2600, confirmed);
    expect([...r.lifts.departedAfterGap()]).toEqual([[at('b0'), 1001]]);
    // Put back, and the evidence begins again: the lift is over, and so is its departure.
    r.record(2700, cells, 2700, confirmed);
    r.lifts.reset(confirmed);
    expect([...r.lifts.departedAfterGap()]).toEqual([]);
  });

  it('keeps the soonest departure of a piece that flickered just before the frames were lost', () => {
    const r = new Readings('occupancy', 35, 0);
    const confirmed = r.cellsOf(start);
    r.record(100, cells, 100, confirmed);
    // b0 flickers empty for 16 ms (no lift), frames are lost after 1020, and it is gone at 2000.
    r.record(1000, without(cells, 'b0'), 1000, confirmed);
    r.record(1016, cells, 1016, confirmed);
    r.record(2000, without(cells, 'b0'), 2000, confirmed, 1020);
    expect([...r.lifts.firstAt(3000)]).toEqual([[at('b0'), 2000]]);
    expect([...r.lifts.departedAfterGap()]).toEqual([[at('b0'), 1021]]);
  });

  it('takes a point read occupied, then empty in the last frame before lost ones, for a spell into the gap', () => {
    const r = new Readings('occupancy', 35, 0);
    const confirmed = r.cellsOf(start);
    r.record(100, cells, 100, confirmed);
    const withE5 = `${cells.slice(0, at('e5'))}x${cells.slice(at('e5') + 1)}`;
    // e5 reads a piece at 1000 and empty 6 ms later, a bounce or a piece set down; frames are lost
    // after 1006, and a heartbeat at 1700 shows it empty: it may have held until then.
    r.record(1000, withE5, 1000, confirmed);
    r.record(1006, cells, 1006, confirmed);
    expect(r.lifts.spells(at('e5'))).toEqual([]);
    r.heartbeat(1700, 1006);
    expect(r.lifts.spells(at('e5'))).toEqual([{ from: 1000, to: 1700 }]);
    // With every frame seen, a flicker stays a flicker.
    r.record(2000, withE5, 2000, confirmed);
    r.record(2006, cells, 2006, confirmed);
    r.heartbeat(2500);
    expect(r.lifts.spells(at('e5'))).toEqual([{ from: 1000, to: 1700 }]);
  });

  it('keeps a covered point covered through a flicker empty, not through a change of colour or a lift', () => {
    const colour = expectedCells(start, 'colour');
    const set = (c: string, name: string, v: string): string =>
      `${c.slice(0, at(name))}${v}${c.slice(at(name) + 1)}`;
    const r = new Readings('colour', 35, 0);
    const confirmed = r.cellsOf(start);
    r.record(100, colour, 100, confirmed);
    r.covered.add(at('a0'));
    // Empty for 14 ms, then the victim's colour again: the stack was touched.
    r.record(200, set(colour, 'a0', '.'), 200, confirmed);
    r.record(214, colour, 214, confirmed);
    expect(r.covered.has(at('a0'))).toBe(true);
    // Empty for longer than a bounce: both pieces were off it.
    r.record(300, set(colour, 'a0', '.'), 300, confirmed);
    r.record(400, colour, 400, confirmed);
    expect(r.covered.has(at('a0'))).toBe(false);
    // Straight to the other colour: the victim was taken from under its capturer.
    r.covered.add(at('a0'));
    r.record(500, set(colour, 'a0', 'b'), 500, confirmed);
    expect(r.covered.has(at('a0'))).toBe(false);
  });

  it('unmasks a dead sensor whose reading changes, and says so before', () => {
    const r = new Readings('occupancy', 35, 0);
    const confirmed = r.cellsOf(start);
    r.record(100, cells, 100, confirmed);
    r.mask = new Set([at('e3')]);
    expect(r.unmasks(without(cells, 'b0'))).toBe(false);
    expect(r.unmasks(without(cells, 'e3'))).toBe(true);
    const mask = r.mask;
    r.record(200, without(cells, 'e3'), 200, confirmed);
    expect(r.mask.size).toBe(0);
    expect(mask.size).toBe(1);
  });

  it('works out the cells of a position once', () => {
    const r = new Readings('colour', 35, 0);
    expect(r.cellsOf(start)).toBe(r.cellsOf(start));
    expect(r.cellsOf(start)).toBe(expectedCells(start, 'colour'));
  });
});

describe('the machine context', () => {
  // xstate copies the context at every assign: from 20 keys on, V8 makes the copy a dictionary
  // (20–30 times slower to copy, slower to read).
  it('stays small enough to be copied as a fast object', () => {
    const actor = createActor(createTrackerMachine(), {
      input: {
        options: { ...DEFAULT_TRACKER_OPTIONS, sensing: 'occupancy' },
        game: {
          position: start,
          previous: undefined,
          plies: 0,
          over: false,
          canPlayOn: false,
          outcome: undefined,
          doubts: [],
        },
        now: () => 0,
      },
    });
    expect(Object.keys(actor.getSnapshot().context).length).toBeLessThan(18);
  });
});
