// The ceiling on naming a dead sensor: games whose frames a twin (another dead point, another
// move) reads the same. Master games as the 1,125-game table's dead-sensor row played them.
import { describe, expect, it } from 'vitest';
import { makeIccs, makeSquareName, parseSquare } from '../../src/rules/index.js';
import { deadTwin, sameElsewhere } from '../../src/simulation/dead-ceiling.js';
import { type PhysicalOptions, physicalPlay } from '../../src/simulation/physical-play.js';
import type { DeadSensor } from '../../src/simulation/real-play.js';
import { liuDahuaGames, positionOf } from '../tracker/physical-support.js';

function twinOf(n: number, seed: number, buttons: boolean, dead: DeadSensor) {
  const g = liuDahuaGames()[n - 1]!;
  const start = positionOf(g.fen);
  const moves = g.moves.map((m) => m.move);
  const options: PhysicalOptions = {
    sensing: 'occupancy',
    seed,
    setupFromEmpty: false,
    buttons,
    real: { dead },
  };
  const played = physicalPlay(start, moves, options);
  const live = physicalPlay(start, moves, { ...options, real: {} });
  const twin = deadTwin({
    start,
    moves,
    dead,
    live: live.events,
    truth: played.truth,
    diedAt: played.dead!.fromT,
  });
  return { played, live, twin };
}

const dead = (square: string, reads: 'empty' | 'occupied', fromPly: number): DeadSensor => ({
  square: parseSquare(square)!,
  reads,
  fromPly,
});

describe('a dead sensor game read the same as another', () => {
  it('master 84: an elephant off the dead g0 reads as the other elephant off c0', () => {
    // g0 reads occupied from the start, under Red's elephant; Red opens g0e2. The board shows e2
    // filled and nothing leaving: c0e2, c0 dead and the g0 elephant still there, shows the same.
    const { played, live, twin } = twinOf(84, 3712250707, false, dead('g0', 'occupied', 0));
    expect(sameElsewhere(played.events, live.events, parseSquare('g0')!)).toBe(true);
    expect(twin && makeIccs(twin.played)).toBe('g0e2');
    expect(twin && makeIccs(twin.move)).toBe('c0e2');
    expect(twin && makeSquareName(twin.dead)).toBe('c0');
  });

  it('master 27: a cannon carried onto the dead c2 reads as the cannon carried to b1', () => {
    const { twin } = twinOf(27, 3712193194, true, dead('c2', 'empty', 19));
    expect(twin && `${makeIccs(twin.played)} ${makeIccs(twin.move)} ${makeSquareName(twin.dead)}`).toBe(
      'b2c2 b2b1 b1',
    );
  });

  it('master 74: a chariot carried onto the dead d4 and on to c4 reads as one carried by e4', () => {
    // g4d4 at ply 23, unseen; d4c4 at ply 25 shows c4 filled, nothing leaving: g4e4 and e4c4, e4
    // dead, show the same (recorded as a capture nobody saw, then c4 taken for a phantom).
    const { twin } = twinOf(74, 3712240617, false, dead('d4', 'empty', 0));
    expect(twin && `${makeIccs(twin.played)} ${makeIccs(twin.move)} ${makeSquareName(twin.dead)}`).toBe(
      'g4d4 g4e4 e4',
    );
  });

  it('master 14: a horse onto the dead a8, taken there within ten plies, has no twin', () => {
    // c7a8 at ply 54; at ply 63 Red's chariot takes it on a8: in the twin the chariot would land
    // on a live empty a8 and light it.
    const { twin } = twinOf(14, 3712180077, false, dead('a8', 'empty', 7));
    expect(twin).toBeUndefined();
  });

  it('the premise is checked: other hands give other frames', () => {
    const g = liuDahuaGames()[83]!;
    const start = positionOf(g.fen);
    const moves = g.moves.map((m) => m.move);
    const a = physicalPlay(start, moves, { sensing: 'occupancy', seed: 1 });
    const b = physicalPlay(start, moves, { sensing: 'occupancy', seed: 2 });
    expect(sameElsewhere(a.events, a.events, 0)).toBe(true);
    expect(sameElsewhere(a.events, b.events, 0)).toBe(false);
  });
});
