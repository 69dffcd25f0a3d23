import { describe, expect, it } from 'vitest';
import { Lifts } from '../../src/tracker/lifts.js';

/** 90 cells, empty but for the points given occupied. */
const cells = (...occupied: number[]): string =>
  Array.from({ length: 90 }, (_, sq) => (occupied.includes(sq) ? 'x' : '.')).join('');

describe('lifts: a move taken back at once', () => {
  // A chariot on 1 slides over 10 and is read landing on 19; 19 empties again and the move is
  // taken back: the position before it, and what was seen since it, are the evidence again.
  const before = cells(1);
  const after = cells(19);
  const play = (lifts: Lifts): void => {
    lifts.reset(before);
    lifts.observe(before, cells(), 0);
    lifts.observe(before, cells(10), 40);
    lifts.observe(before, cells(), 80);
    lifts.observe(before, cells(19), 100);
    lifts.reset(after);
    lifts.observe(after, cells(), 200);
  };

  it('restores the readings of the empty points since the position it returns to', () => {
    const lifts = new Lifts(35);
    play(lifts);
    expect(lifts.readingsOf(10)).toBeUndefined();
    lifts.resetBack(before);
    expect(lifts.readingsOf(10)).toEqual([40, 80]);
    // (The landing point: set down at 100, taken off again at 200; passed over, no piece's stay,
    // else that landing would be read again.)
    expect(lifts.readingsOf(19)).toEqual([100, 200]);
    expect(lifts.spells(19)).toEqual([]);
    expect(lifts.spells(10)).toEqual([{ from: 40, to: 80 }]);
    expect([...lifts.visited()].sort((a, b) => a - b)).toEqual([10, 19]);
  });

  it('restores nothing once the new position was seen as it is, nor for another position', () => {
    const seen = new Lifts(35);
    play(seen);
    seen.reset(after);
    seen.resetBack(before);
    expect(seen.visited().size).toBe(0);

    const other = new Lifts(35);
    play(other);
    other.resetBack(cells(2));
    expect(other.visited().size).toBe(0);
  });
});
