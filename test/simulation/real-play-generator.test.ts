// The generator of real play (rules 10–16): its logs are consistent with its own ground truth.
import { describe, expect, it } from 'vitest';
import { type Move, makeIccs, Position } from '../../src/rules/index.js';
import { cellsOf } from '../../src/sensors/snapshot.js';
import { type PhysicalOptions, physicalPlay } from '../../src/simulation/physical-play.js';
import { rng } from '../../src/simulation/random.js';
import { pickDeadSquare, REAL_SPEC, type RealPlay } from '../../src/simulation/real-play.js';
import { randomGame } from '../../src/simulation/real-play-judge.js';

const cellsAt = (events: ReturnType<typeof physicalPlay>['events'], t: number): string => {
  let cells = '';
  for (const e of events) {
    if (e.t > t) break;
    if (e.type === 'snapshot') cells = e.cells;
  }
  return cells;
};

/** The log without frames that repeat the last reading. */
function changesOf(events: ReturnType<typeof physicalPlay>['events']): unknown[] {
  let last = '';
  return events.filter((e) => {
    if (e.type !== 'snapshot') return true;
    const changed = e.cells !== last;
    last = e.cells;
    return changed;
  });
}

const diff = (a: string, b: string): number[] => [...a].flatMap((c, i) => (c === b[i] ? [] : [i]));

function game(k: number): { start: Position; moves: Move[] } {
  const start = Position.default();
  return { start, moves: randomGame(start, 60 + (k % 40), 4200 + k) };
}

const rules: [string, Partial<RealPlay>][] = [
  ['fast play', { fastPace: 0.5, fastReply: 0.5 }],
  ['hesitating slides', { hesitate: REAL_SPEC.hesitate }],
  ['lost frames', { lostFrames: 0.05 }],
  ['knocked pieces', { knock: 0.3 }],
  ['late removal', { lateRemoval: 1 }],
  ['adjusting', { nudge: 0.5, straighten: 0.5 }],
  ['all at once', { ...REAL_SPEC, fastPace: 0.3, fastReply: 0.3 }],
];

describe.each(['occupancy', 'colour'] as const)('real play, sensing %s', (sensing) => {
  it.each(rules)('%s: the truth is the game, and the board shows it', (_, real) => {
    for (let k = 0; k < 12; k++) {
      const { start, moves } = game(k);
      const options: PhysicalOptions = { sensing, seed: 77 + k, buttons: k % 2 === 0, real };
      const play = physicalPlay(start, moves, options);
      // Time never goes back, in the log or in the truth.
      for (let i = 1; i < play.events.length; i++)
        expect(play.events[i]!.t).toBeGreaterThanOrEqual(play.events[i - 1]!.t);
      for (let i = 1; i < play.truth.length; i++)
        expect(play.truth[i]!.t).toBeGreaterThanOrEqual(play.truth[i - 1]!.t);
      // The truth, replayed, is the game.
      const record: string[] = [];
      for (const e of play.truth) {
        record.length = e.ply - 1;
        if (e.kind === 'move') record.push(e.iccs);
      }
      expect(record).toEqual(moves.map(makeIccs));
      expect(play.truth.filter((e) => e.kind === 'retract')).toHaveLength(play.takebacks);
      // When each move is complete the board reads its position, but for what rules 14 and 15 allow.
      const pos = start.clone();
      let ply = 0;
      for (const e of play.truth) {
        if (e.kind === 'retract') {
          pos.undo();
          continue;
        }
        pos.play(moves[e.ply - 1]!);
        ply = e.ply;
        if (real.lostFrames) continue;
        const wrong = diff(cellsAt(play.events, e.t), cellsOf(pos.toSetup().board, sensing));
        const allowed = (real.knock ? 2 : 0) + (real.lateRemoval && sensing === 'colour' ? 3 : 0);
        expect(wrong.length, `ply ${e.ply} at ${e.t}: ${wrong}`).toBeLessThanOrEqual(allowed);
      }
      expect(ply).toBe(moves.length);
      // At the end everything is back in place.
      const last = play.events.at(-1)!;
      expect(last.type === 'snapshot' && last.cells).toBe(cellsOf(pos.toSetup().board, sensing));
    }
  });

  it('a capture that changed nothing on the board is seen later, every other move at once', () => {
    let later = 0;
    for (let k = 0; k < 12; k++) {
      const { start, moves } = game(k);
      const play = physicalPlay(start, moves, { sensing, seed: 31 + k, rates: { capture_swap: 0.6 } });
      for (const e of play.truth) {
        if (e.kind !== 'move' || e.seen === undefined) continue;
        later++;
        expect(e.seen).toBeGreaterThan(e.t);
        expect(play.swapPlies, `ply ${e.ply}`).toContain(e.ply);
      }
      if (sensing === 'colour') expect(play.truth.filter((e) => e.kind === 'move' && e.seen)).toEqual([]);
    }
    if (sensing === 'occupancy') expect(later).toBeGreaterThan(10);
  });

  it('lost frames: heartbeats at least every second, about the rate lost, never the first frame', () => {
    let frames = 0;
    let lost = 0;
    for (let k = 0; k < 10; k++) {
      const { start, moves } = game(k);
      const play = physicalPlay(start, moves, { sensing, seed: 5 + k, real: { lostFrames: 0.02 } });
      const base = physicalPlay(start, moves, { sensing, seed: 5 + k });
      expect(play.events[0]).toEqual(base.events[0]);
      frames += play.events.length + play.realCounts.lost_frame;
      lost += play.realCounts.lost_frame;
      const snaps = play.events.filter((e) => e.type === 'snapshot');
      // One lost heartbeat leaves a gap of 2 s at most (two in a row are rare).
      for (let i = 1; i < snaps.length; i++) expect(snaps[i]!.t - snaps[i - 1]!.t).toBeLessThanOrEqual(3000);
    }
    expect(lost / frames).toBeGreaterThan(0.01);
    expect(lost / frames).toBeLessThan(0.03);
  });

  it('lost frames: a move or takeback counts from a frame the link delivered that shows it', () => {
    let later = 0;
    for (let k = 0; k < 10; k++) {
      const { start, moves } = game(k);
      const play = physicalPlay(start, moves, {
        sensing,
        seed: 71 + k,
        rates: { takeback: 0.3 },
        real: { lostFrames: 0.1 },
      });
      const delivered = new Set(play.events.map((e) => e.t));
      const end = play.events.at(-1)!.t;
      for (const e of play.truth) {
        if (e.seen === undefined) continue;
        expect(e.seen).toBeGreaterThan(e.t);
        // Seen at a delivered frame or button, or (nothing showing it) when play ends.
        expect(delivered.has(e.seen) || e.seen >= end, `${e.kind} ${e.ply} seen ${e.seen}`).toBe(true);
        if (e.kind === 'retract') later++;
      }
    }
    // Takebacks whose resting frames were lost: seen only later.
    expect(later).toBeGreaterThan(0);
  });

  it('heartbeatMs alone repeats the reading, nothing lost', () => {
    const { start, moves } = game(1);
    const play = physicalPlay(start, moves, { sensing, seed: 3, heartbeatMs: 500 });
    const base = physicalPlay(start, moves, { sensing, seed: 3 });
    expect(play.realCounts.lost_frame).toBe(0);
    expect(play.events.length).toBeGreaterThan(base.events.length);
    // Without the heartbeats it is the same log.
    expect(changesOf(play.events)).toEqual(changesOf(base.events));
  });

  it('a dead sensor reads the same in every frame from its ply on', () => {
    for (let k = 0; k < 10; k++) {
      const { start, moves } = game(k);
      for (const kind of ['used', 'unused', 'untouched'] as const) {
        const fromPly = k % 2 === 0 ? 0 : 10;
        const dead = pickDeadSquare(start, moves, kind, fromPly, rng(k));
        if (!dead) continue;
        const play = physicalPlay(start, moves, { sensing, seed: 9 + k, real: { dead } });
        expect(play.dead?.square).toBe(dead.square);
        const used = moves.some((m) => m.from === dead.square || m.to === dead.square);
        expect(used).toBe(kind === 'used');
        if (kind === 'used') expect(play.dead?.firstUsePly).toBeGreaterThan(fromPly);
        else expect(play.dead?.firstUsePly).toBeUndefined();
        const readings = new Set(
          play.events.flatMap((e) =>
            e.type === 'snapshot' && e.t >= play.dead!.fromT ? [e.cells[dead.square]] : [],
          ),
        );
        expect(readings.size).toBe(1);
        expect([...readings][0] === '.').toBe(dead.reads === 'empty');
      }
    }
  });
});

describe('a dead square the game uses', () => {
  it('is never one only the last move lands on unseen, unless a clock button shows that move', () => {
    const { start, moves } = game(1);
    const last = moves.at(-1)!;
    const unseen = (d: ReturnType<typeof pickDeadSquare>) => d?.square === last.to && d.reads === 'empty';
    // Dead from the last ply: the game uses only the last move's two squares after that.
    const from = moves.length - 1;
    // (Forty games drawing from one stream, as a table's row does.)
    const draw = (lastShown: boolean) => {
      const random = rng(7);
      return Array.from({ length: 40 }, () => pickDeadSquare(start, moves, 'used', from, random, lastShown));
    };
    const shown = draw(true);
    const hidden = draw(false);
    expect(shown.filter(unseen).length).toBeGreaterThan(0);
    expect(hidden.filter(unseen)).toEqual([]);
    for (const d of hidden) expect([last.from, last.to]).toContain(d!.square);
    // The other square instead, and every other game keeps its own: the stream draws nothing more.
    for (const [k, d] of shown.entries())
      expect(hidden[k]).toEqual(unseen(d) ? { ...d, square: last.from } : d);
  });
});

describe('players answering the board', () => {
  it('lift each piece an answer names and set it back, then play the same game later', () => {
    const { start, moves } = game(3);
    const options: PhysicalOptions = { sensing: 'occupancy', seed: 91, real: {} };
    const plain = physicalPlay(start, moves, options);
    const at = plain.truth.find((e) => e.kind === 'move' && e.ply === 10)!.t;
    // The answer asks for b0, h0 and e4 after ply 10: what stands there is lifted, an empty one skipped.
    const pos = start.clone();
    for (const m of moves.slice(0, 10)) pos.play(m);
    const squares = [1, 7, 40].filter((sq) => pos.pieceAt(sq) !== undefined);
    expect(squares.length).toBeGreaterThan(0);
    expect(squares.length).toBeLessThan(3);
    const answered = physicalPlay(start, moves, {
      ...options,
      real: { answers: [{ after: at, squares: [1, 7, 40] }] },
    });
    expect(answered.realCounts.answer).toBe(1);
    // The same moves in the same order, each as late as the answer took, or later.
    const played = (p: typeof plain) => p.truth.map((e) => (e.kind === 'move' ? e.iccs : 'retract'));
    expect(played(answered)).toEqual(played(plain));
    // Between the two moves around it, each named square with a piece reads empty once, then full.
    const before = answered.truth.find((e) => e.kind === 'move' && e.ply === 10)!.t;
    const after = answered.truth.find((e) => e.kind === 'move' && e.ply === 11)!.t;
    const window = answered.events.filter(
      (e): e is Extract<(typeof answered.events)[number], { type: 'snapshot' }> =>
        e.type === 'snapshot' && e.t > before && e.t < after,
    );
    for (const sq of [1, 7, 40]) {
      const reads = window.map((e) => e.cells[sq]).join('');
      if (squares.includes(sq)) expect(reads).toMatch(/x\.+x/);
      else expect(reads).not.toContain('x');
    }
    const plainAfter = plain.truth.find((e) => e.kind === 'move' && e.ply === 11)!.t;
    expect(after).toBeGreaterThan(plainAfter);
  });
});
