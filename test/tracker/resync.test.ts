/**
 * Reading a lost board again (src/tracker/resync.ts): the shortest legal lines from the record
 * that the board shows, with at most one dead sensor, and only as the sensors showed them.
 */
import { describe, expect, it } from 'vitest';
import {
  type Move,
  makeIccs,
  makeSquareName,
  Position,
  parseIccs,
  parseSquare,
  type Square,
} from '../../src/rules/index.js';
import type { Sensing } from '../../src/sensors/snapshot.js';
import { expectedCells } from '../../src/tracker/reader.js';
import { type ResyncInput, type ResyncLine, resyncLines } from '../../src/tracker/resync.js';

const sq = (name: string): Square => parseSquare(name)!;
const move = (iccs: string): Move => {
  const m = parseIccs(iccs);
  if (!m.ok) throw new Error(iccs);
  return m.value;
};
const played = (pos: Position, line: string): Position => {
  const p = pos.clone();
  for (const m of line.split(' ').filter(Boolean)) p.play(move(m));
  return p;
};
const CODE: Record<string, number> = { '.': 0, r: 1, b: 2, x: 3 };
const codes = (cells: string): Uint8Array => Uint8Array.from(cells, (c) => CODE[c]!);

/** What the sensors read of `pos`, with some points reading otherwise (dead sensors). */
function board(pos: Position, sensing: Sensing, reads: Record<string, string> = {}): Uint8Array {
  const cells = [...expectedCells(pos, sensing)];
  for (const [name, c] of Object.entries(reads)) cells[sq(name)] = c;
  return codes(cells.join(''));
}

/** Evidence that every point the line touched showed it (pieces set down and taken off). */
const allSeen = { setDown: () => true, takenOff: () => true };

function read(input: Partial<ResyncInput> & Pick<ResyncInput, 'roots' | 'obs'>): string[] {
  return resyncLines({ mask: new Set(), deadFrom: () => 0, maxPlies: 4, ...allSeen, ...input }).map(show);
}
const show = (l: ResyncLine): string =>
  `${l.retract ? 'retract, ' : ''}${l.moves.map(makeIccs).join(' ')}${l.dead ? ` (${l.dead.reads} ${makeSquareName(l.dead.square)})` : ''}`;

const start = Position.default();

describe('reading a lost board again', () => {
  it('finds the moves the board shows, from the confirmed position', () => {
    const now = played(start, 'h2e2 h9g7 h0g2');
    expect(read({ roots: [{ position: start, retract: 0 }], obs: board(now, 'colour') })).toEqual([
      'h2e2 h9g7 h0g2',
    ]);
  });

  it('takes the last move back when another one reads the board, not a takeback alone', () => {
    const base = played(start, 'h2e2');
    const roots = [
      { position: base, retract: 0 as const },
      { position: start, retract: 1 as const, played: move('h2e2') },
    ];
    // Really h2d2, h9g7, h0g2: from the record no line reads it (red would move twice running).
    const now = played(start, 'h2d2 h9g7 h0g2');
    expect(read({ roots, obs: board(now, 'colour') })).toEqual(['retract, h2d2 h9g7 h0g2']);
    // A board the record explains as well is read from the record: fewer moves taken back.
    expect(read({ roots, obs: board(played(start, 'h2d2 h9g7'), 'colour') })).toEqual(['h9g7 e2d2']);
    // The board before the record's move is no line: the reader's takeback says so, not this.
    expect(read({ roots, obs: board(start, 'colour') })).toEqual([]);
  });

  it('names the one point whose sensor never read the piece that landed there', () => {
    // The cannon went to e2, whose sensor reads empty: a landing nobody saw, and the reply.
    const now = played(start, 'b2e2 h9g7');
    const obs = board(now, 'colour', { e2: '.' });
    // Any point the cannon could go to reads the same, its own sensor dead: a doubt for play (or the
    // players) to settle, each line naming its own point.
    const lines = read({ roots: [{ position: start, retract: 0 }], obs });
    expect(lines).toContain('b2e2 h9g7 (empty e2)');
    expect(lines.filter((l) => /^b2(..) h9g7 \(empty \1\)$/.test(l))).toHaveLength(11);
    // (Or it took b9, whose sensor goes on reading the black piece.)
    expect(lines.filter((l) => !l.includes('empty'))).toEqual(['b2b9 h9g7 (occupied b9)']);
    // Occupancy cannot tell it from a capture nobody saw land (b9 reads as before), which needs
    // no dead sensor.
    const blind = board(now, 'occupancy', { e2: '.' });
    expect(read({ roots: [{ position: start, retract: 0 }], obs: blind })).toEqual(['b2b9 h9g7']);
    // Each says from when its point may be taken for dead (its reading has held a while).
    const timed = resyncLines({
      roots: [{ position: start, retract: 0 }],
      obs,
      mask: new Set(),
      deadFrom: (s) => (s === sq('e2') ? 5000 : 0),
      maxPlies: 4,
      ...allSeen,
    });
    expect(timed.find((l) => l.dead?.square === sq('e2'))?.dead?.from).toBe(5000);
    expect(timed.filter((l) => l.dead?.from === 0)).toHaveLength(11);
  });

  it('prefers a board read exactly to one with a dead sensor, and fewer moves to more', () => {
    const now = played(start, 'h2e2');
    const lines = read({ roots: [{ position: start, retract: 0 }], obs: board(now, 'occupancy') });
    expect(lines).toEqual(['h2e2']);
  });

  it('offers every line that reads the board as well: the order of two moves, say', () => {
    const now = played(start, 'h2e2 h9g7 b0c2');
    expect(read({ roots: [{ position: start, retract: 0 }], obs: board(now, 'colour') }).sort()).toEqual([
      'b0c2 h9g7 h2e2',
      'h2e2 h9g7 b0c2',
    ]);
  });

  it('follows the evidence: a piece set down where no sensor ever read it is no line', () => {
    const now = played(start, 'i0i1 h9g7 i1d1');
    const obs = board(now, 'occupancy');
    const roots = [{ position: start, retract: 0 as const }];
    expect(read({ roots, obs })).toEqual(['i0i1 h9g7 i1d1']);
    // i1 never read occupied: the chariot did not stop there, and nothing else reads the board.
    expect(read({ roots, obs, setDown: (s) => s !== sq('i1') })).toEqual([]);
    // Nor did it leave i0 if i0 never read empty.
    expect(read({ roots, obs, takenOff: (s) => s !== sq('i0') })).toEqual([]);
  });

  it('reads from a root with a move of the record changed, at the cost of one move changed', () => {
    // The record says h2e2 h9g7 (in doubt: maybe h2d2), and the board shows h2d2 h9g7 h0g2.
    const rival = played(start, 'h2d2 h9g7');
    const roots = [
      { position: played(start, 'h2e2 h9g7'), retract: 0 },
      { position: rival, retract: 2, prefix: ['h2d2', 'h9g7'].map(move), cost: 2 },
    ];
    expect(read({ roots, obs: board(played(start, 'h2d2 h9g7 h0g2'), 'colour') })).toEqual([
      'retract, h2d2 h9g7 h0g2',
    ]);
  });

  it('ignores what a masked point reads', () => {
    const now = played(start, 'h2e2 h9g7');
    const obs = board(now, 'colour', { a3: '.' });
    expect(read({ roots: [{ position: start, retract: 0 }], obs, mask: new Set([sq('a3')]) })).toEqual([
      'h2e2 h9g7',
    ]);
  });

  it('gives up on a board too far from the record', () => {
    const far = played(start, 'h2e2 h9g7 h0g2 i9h9 i0h0 c6c5');
    expect(read({ roots: [{ position: start, retract: 0 }], obs: board(far, 'colour') })).toEqual([]);
  });
});
