/**
 * The move reader past the physical handling model (rules 10–16 of the sensor-log spec), one
 * situation at a time on a scripted board: what it records, and what it says when it cannot tell.
 */
import { describe, expect, it } from 'vitest';
import { Game } from '../../src/game/game.js';
import { makeSquareName, parseIccs, parseSquare, type Square } from '../../src/rules/index.js';
import type { Sensing } from '../../src/sensors/snapshot.js';
import { physicalPlay } from '../../src/simulation/physical-play.js';
import {
  CONDITIONS,
  type JudgedGame,
  judgeGame,
  type Players,
  randomGames,
  rowOptions,
  sample,
} from '../../src/simulation/real-play-judge.js';
import type { MoveRecord } from '../../src/tracker/game-port.js';
import { expectedCells } from '../../src/tracker/reader.js';
import { runSensorEvents } from '../../src/tracker/run.js';
import type { Tracker } from '../../src/tracker/tracker.js';
import { expectAlertedThenRight, liuDahuaGames, positionOf } from './physical-support.js';
import { BoardScript } from './script.js';

/**
 * Random game `k` of a 60-game row of `npm run real-play` at `seed`, replayed alone (with
 * `players`, what they do with an alert over a dead sensor).
 */
function replayRow(
  row: string,
  sensing: Sensing,
  seed: number,
  k: number,
  players: Players = 'passive',
): JudgedGame {
  const condition = CONDITIONS.find((c) => c.id === row)!;
  const games = randomGames(60, seed);
  const options = rowOptions(condition, games, sensing, seed)[k]!;
  expect(options.real?.dead ?? options.real).toBeDefined();
  return judgeGame(games[k]!, options, players);
}

/** Master game `n` (1-based, of the 1,125) in a 60-game row of `npm run real-play` at `seed`, replayed alone. */
function replayMasterRow(row: string, sensing: Sensing, seed: number, n: number): JudgedGame {
  const condition = CONDITIONS.find((c) => c.id === row)!;
  const all = liuDahuaGames().map((g, i) => ({
    label: `master ${i + 1}`,
    start: positionOf(g.fen),
    moves: g.moves.map((m) => m.move),
  }));
  const games = sample(all, 60, seed);
  const k = games.findIndex((g) => g.label === `master ${n}`);
  expect(k).toBeGreaterThanOrEqual(0);
  return judgeGame(games[k]!, rowOptions(condition, games, sensing, seed)[k]!);
}

describe('fast play', () => {
  it('a chariot set down and taken off at once by the opponent is the move and the capture', () => {
    const b = BoardScript.of('3k5/9/9/9/9/9/6r2/9/9/4K3R w - - 0 1');
    // The chariot lands on g0; 80 ms later, before the slide could be taken as over, Black takes
    // it off, then lifts its own chariot and sets it down there.
    b.lift('i0').place('g0', 200).lift('g0', 80).wait(300).lift('g3').wait(400).place('g0', 0, 'x').wait(300);
    expect(b.moves()).toEqual(['i0g0', 'g3g0']);
    expect(b.of('alert').map((a) => a.alert.kind)).not.toContain('illegal_move');
  });

  it("a piece knocked before the move landed, put back later, is no capture's victim", () => {
    const b = BoardScript.of('3k5/9/9/2r6/9/9/2N6/R8/9/4K4 w - - 0 1');
    // Red's hand knocks the horse on c3 off while the chariot goes a2 → b2. Black lifts its chariot
    // (which could take c3), the horse is put back, and the chariot goes to c4.
    b.lift('a2').lift('c3', 100).place('b2', 150, 'x').wait(400);
    b.lift('c6').place('c3', 500, 'x').wait(300);
    expect(b.moves()).toEqual(['a2b2']);
    b.place('c4', 400, 'x').wait(300);
    expect(b.moves()).toEqual(['a2b2', 'c6c4']);
  });
});

describe('knocked pieces', () => {
  it('a piece knocked as the capturer is lifted again is no reply that ends a capture nobody saw (master 35)', () => {
    const b = BoardScript.of('4k4/9/9/2r6/2PR5/9/9/9/9/3K5 b - - 0 1');
    // Black lifts its chariot on c6 (it could take c5 unseen), sets it back, lifts it again, and
    // its hand knocks Red's chariot off d5 (which could take back on c5, unseen too).
    b.lift('c6').wait(400).place('c6').wait(700).lift('c6').lift('d5', 160).wait(400);
    expect(b.moves()).toEqual([]);
    b.place('d5', 800, 'x').wait(500);
    expect(b.moves()).toEqual([]);
    b.place('c6', 300).wait(500);
    expect(b.moves()).toEqual([]);
  });

  it("a piece off before the mover's landed, then read taking it, was knocked (master 86)", () => {
    const b = BoardScript.of('4k4/9/9/2r6/9/2P6/9/9/9/3K5 b - - 0 1');
    // Black's hand knocks the pawn on c4 off as it lifts its chariot; the chariot lands on c5
    // (it could still slide on), is nudged (lifted and set down: it reads as a capture there), and
    // the knocked pawn is put back.
    b.lift('c6').lift('c4', 35).place('c5', 365).wait(100).lift('c5').place('c5', 350, 'x').wait(900);
    b.place('c4', 0, 'x').wait(500);
    expect(b.moves()).toEqual(['c6c5']);
    expect(b.of('move').map((m) => m.iccs)).not.toContain('c4c5');
  });
});

describe('captures nobody saw', () => {
  it("are no story while the opponent's lift may be a piece the mover's hand knocked on its way", () => {
    const b = BoardScript.of('4kan2/4r4/9/9/9/6R2/4P4/9/9/3K5 w - - 0 1');
    // The chariot leaves g4 (a capture on g9 would read just so) and the hand knocks the pawn on
    // e3, which Black's chariot could take; the chariot is set down on f4, the pawn put back.
    b.lift('g4').lift('e3', 180).wait(220).place('f4', 0, 'x').wait(800).place('e3', 0, 'x').wait(500);
    b.move('e8', 'e7').wait(400);
    expect(b.moves()).toEqual(['g4f4', 'e8e7']);
    expect(b.of('move').map((m) => m.iccs)).not.toContain('g4g9');
  });

  it("are no story when the mover's first piece off was knocked by the last move's hand", () => {
    const b = BoardScript.of('4k4/9/9/6p2/9/6P2/7r1/6C2/3R5/3K5 b - - 0 1', 'colour');
    // Black's chariot slides h3 → h1, and its hand knocks Red's cannon off g2 (a cannon capture on
    // g6 would read just so). Red lifts its chariot, sets it down on d3, then puts the cannon back.
    b.lift('h3').place('h2', 35).lift('h2', 40).place('h1').wait(60).lift('g2').wait(340);
    b.lift('d1').wait(500).place('d3').wait(300).place('g2', 300).wait(500);
    expect(b.moves()).toEqual(['h3h1', 'd1d3']);
    expect(b.of('move').map((m) => m.iccs)).not.toContain('g2g6');
  });

  it('are recorded on the reply, saying that a dead sensor elsewhere would look the same', () => {
    const b = BoardScript.of('4k4/9/9/9/2p6/4N4/9/9/9/3K5 w - - 0 1');
    b.swapCapture('e4', 'c5').wait(500).move('e9', 'e8', 300).wait(300);
    expect(b.moves()).toEqual(['e4c5', 'e9e8']);
    const said = b.of('alert').find((a) => a.alert.kind === 'ambiguous');
    expect(said?.alert.message).toContain('recorded e4c5, a capture nobody saw');
    expect(said?.alert.message).toContain('lifting the captured piece off first');
  });

  it("are said at once when the mover's clock says the move is over and two captures fit", () => {
    const b = BoardScript.of('4k4/9/9/9/2p3p2/4N4/9/9/9/3K5 w - - 0 1');
    b.swapCapture('e4', 'c5').wait(400);
    expect(b.of('alert')).toEqual([]);
    b.press('red').wait(50).heartbeat().wait(100);
    const said = b.of('alert').find((a) => a.alert.kind === 'ambiguous');
    expect(said?.alert.candidates).toEqual([['e4c5'], ['e4g5']]);
    expect(b.moves()).toEqual([]);
  });
});

describe('late removal under a colour sensor', () => {
  it('a capturer standing on its victim, read as the victim, is no piece astray for the next move', () => {
    const b = BoardScript.of('R1n1k4/9/4b4/2P6/9/9/2C6/9/9/3K5 w - - 0 1', 'colour');
    b.lift('c9').wait(300).move('a9', 'c9').wait(400);
    // Black's elephant is set down on the chariot (the sensor goes on reading the red chariot
    // below), and Red lifts its cannon: a cannon capture on c9 would read just so, but the cannon
    // is in the hand until the chariot is taken off and the cannon set down on g3.
    b.lift('e7').wait(600).lift('c3').wait(1500);
    b.place('c9', 0, 'b').wait(300).place('g3', 300).wait(500);
    expect(b.moves()).toEqual(['a9c9', 'e7c9', 'c3g3']);
    expect(b.of('move').map((m) => m.iccs)).not.toContain('c3c9');
  });
});

describe('dead sensors', () => {
  it('a point reading empty longer than a knocked piece stays off, when masking it leaves a line, is one', () => {
    const b = BoardScript.of('3k5/9/9/9/9/9/9/9/9/R2AKA3 w - - 0 1');
    // d0's sensor dies (it reads empty under its advisor); 350 ms later the f0 advisor goes to e1.
    // Either advisor may have gone: the other's emptiness is a knocked piece until it is off too
    // long for that. d0 went first: it is the dead one.
    b.lift('d0').lift('f0', 350).place('e1', 300).wait(3000);
    expect(b.moves()).toEqual(['f0e1']);
    const fault = b.of('alert').find((a) => a.alert.kind === 'sensor_fault');
    expect(fault?.alert.square).toBe('d0');
    expect(fault?.alert.reads).toBe('empty');
  });
});

describe('a landing nobody saw', () => {
  it('is a dead sensor when the mover has held its piece long and the opponent is at work', () => {
    const b = BoardScript.of('3aka3/9/9/9/9/9/9/9/9/3K4R b - - 0 1');
    // The advisor goes f9 → e8, whose sensor never reads it; Red lifts its chariot and holds it
    // until it is off longer than a knocked piece would be: the chariot is no stray, e8 is dead.
    b.lift('f9').wait(1500).lift('i0').wait(2600);
    expect(b.moves()).toEqual(['f9e8']);
    const fault = b.of('alert').find((a) => a.alert.kind === 'sensor_fault');
    expect(fault?.alert.square).toBe('e8');
    expect(fault?.alert.reads).toBe('empty');
    b.place('i5', 0, 'x').wait(500);
    expect(b.moves()).toEqual(['f9e8', 'i0i5']);
  });

  it('names no piece held by the opponent as the dead one', () => {
    // Random game 53 of seed 3, the dead-sensor row, occupancy: e8 dead from the start, the
    // advisor's move onto it unseen, and Red's cannon taking on b9 (the victim lifted first) once
    // made the reader name b9, then b2, dead, and record nothing more.
    const judged = replayRow('dead_used', 'occupancy', 3, 53);
    expect(judged.classification.deadNamed).toBe(true);
    expect(judged.classification.kind).toBe('exact');
  });
});

describe('a takeback the board cannot tell from a piece in the hand', () => {
  it("is read at once when the piece still off is one the taken-back move's own hand knocked", () => {
    // Master game 389, the knock-and-adjust row at seed 3, occupancy: a horse's move taken back
    // while a piece its hand knocked was still off, read for 2 s as the move standing, without a
    // word; then said once it had lasted a while; now read as the takeback it is.
    const judged = replayMasterRow('knock_adjust', 'occupancy', 3, 389);
    expect(judged.classification.kind).toBe('exact');
    expect(judged.emitted.some((e) => e.type === 'retract')).toBe(true);
  });

  it('is not read as the last move changed to a capture nobody saw land', () => {
    // Random game 35 of seed 3, the dead-sensor row, occupancy: h2 dead under a red cannon (read as
    // held), Black's cannon h6 → h5 lifted again to be taken back; the reader at once changed the
    // move to h6 × h0 (a swap nobody saw, over the cannon on h2), then read the cannon going h2 → h6.
    const judged = replayRow('dead_used', 'occupancy', 3, 35);
    expect(judged.classification.reader.slice(0, 26)).toEqual(judged.classification.game.slice(0, 26));
    expect(judged.classification.kind).not.toBe('silent');
  });
});

describe('a dead square under a standing piece', () => {
  it('is not taken for the landing of that piece when the mover is at work elsewhere', () => {
    // Master game 389, the row with a dead square nobody uses from ply 10, seed 2, occupancy: i3
    // dead under Red's soldier; Red's horse goes b0 → d1 and Black replies; the soldier, read as
    // held for 5 s, was taken to have gone to i4 unseen, and i4 named dead.
    const judged = replayMasterRow('dead_unused_10', 'occupancy', 2, 389);
    expect(judged.classification.reader).toEqual(judged.classification.game);
    expect(judged.classification.kind).toBe('exact');
  });
});

/** The reader's doubts over which sensor is dead: each with its candidate lines (ICCS). */
const deadDoubts = (judged: JudgedGame): string[][][] =>
  judged.emitted.flatMap((e) =>
    e.type === 'alert' && e.alert.kind === 'ambiguous' && /one sensor reads wrong/.test(e.alert.message)
      ? [e.alert.candidates!.map((l) => [...l])]
      : [],
  );

describe('which of several sensors is dead', () => {
  it('a piece gone from a point still reading it, three pieces it may be: play tells which', () => {
    // Random game 17 of seed 1, the dead-sensor row, occupancy: a piece appears on c4 while e2, c3
    // and b4 still read theirs. One of those sensors is dead (or c4's reads a stray): the reader
    // says so, reads on in each world, and records the one play leaves, naming its square.
    const judged = replayRow('dead_used', 'occupancy', 1, 16);
    expect(deadDoubts(judged)[0]).toEqual([['e2c4'], ['c3c4'], ['b4c4'], []]);
    // (Alerted: the moves are published once play has told the worlds apart, the doubt said meanwhile.)
    expectAlertedThenRight(judged);
    expect(judged.classification.deadNamed).toBe(true);
  });

  it('a landing no sensor saw, on one of two points: play tells which', () => {
    // Random game 19 of seed 1, the dead-sensor row, occupancy: Black's elephant leaves g9 and is
    // never seen landing (e7 or i7; Red replies meanwhile). The elephant held long, Red's pawn off
    // its point that it cannot take: the doubt is asked before Red's reply lands.
    const judged = replayRow('dead_used', 'occupancy', 1, 18);
    expect(deadDoubts(judged)[0]).toEqual([['g9e7'], ['g9i7']]);
    // (Alerted: the moves are published once play has told the worlds apart, the doubt said meanwhile.)
    expectAlertedThenRight(judged);
    expect(judged.classification.deadNamed).toBe(true);
  });

  it('a sensor that starts reading a piece where a move could land is no move by itself', () => {
    // Random game 2 of seed 1, a dead square nobody uses from ply 10, occupancy: a1's sensor starts
    // reading a piece where Red's chariot on a0 could go. It was once read as a0a1, a0 named dead.
    const judged = replayRow('dead_unused_10', 'occupancy', 1, 1);
    expect(judged.classification.reader).toEqual(judged.classification.game);
    expect(judged.classification.kind).toBe('exact');
  });
});

describe('the world left of a doubt', () => {
  it('is recorded move by move, a write the journal refuses tried again', () => {
    const g = Game.start();
    if (!g.ok) throw new Error(g.error.message);
    let refusals = 2;
    const written: string[] = [];
    const record: MoveRecord = {
      move: (played) => {
        if (written.length === 1 && refusals-- > 0) return { ok: false, retryMs: 400 };
        written.push(played.iccs);
        return { ok: true };
      },
      retract: () => ({ ok: true }),
    };
    const b = new BoardScript(g.value, 'occupancy', {}, undefined, record);
    b.wait(1000);
    // Red's soldier e3 → e4 with e3's sensor stuck: only e4 changes (a stray piece reads the same).
    b.place('e4', 0, 'x').wait(400);
    const doubt = b.of('alert').find((a) => a.alert.kind === 'ambiguous');
    expect(doubt?.alert.candidates).toEqual([['e3e4'], []]);
    // Black replies: a move where e3 is dead, one out of turn where e4 reads a stray: e3 is the
    // dead point.
    b.move('h9', 'g7').wait(400);
    // The second write is refused twice: nothing after it is recorded before it.
    expect(written).toEqual(['e3e4']);
    expect(b.moves()).toEqual(['e3e4']);
    b.lift('e4').place('e5', 300).wait(400);
    b.wait(1200);
    expect(written).toEqual(['e3e4', 'h9g7', 'e4e5']);
    expect(b.moves()).toEqual(['e3e4', 'h9g7', 'e4e5']);
    const faults = b.of('alert').filter((a) => a.alert.kind === 'sensor_fault');
    expect(faults.map((a) => a.alert.square)).toEqual(['e3']);
    b.move('g7', 'e8').wait(400);
    expect(b.moves()).toEqual(['e3e4', 'h9g7', 'e4e5', 'g7e8']);
  });
});

/** The squares `sensor_fault` alerts named, in order. */
const faultsOf = (b: BoardScript): (string | undefined)[] =>
  b.of('alert').flatMap((a) => (a.alert.kind === 'sensor_fault' ? [a.alert.square] : []));

describe('a dead sensor the game uses', () => {
  it('a capture of the piece that just captured, from a point stuck reading it, is no takeback', () => {
    // Master game 180, colour sensing: Black's cannon took a piece on e2, Red's elephant took the
    // cannon there from g0, whose sensor was stuck. The board read as the cannon's capture taken
    // back with the cannon still in the hand: the reader took the move back, and read Black's next
    // move in its place, without a word in time.
    const fen = '3kr4/9/9/9/9/9/9/R3N4/9/5K3 b - - 0 1';
    const b = BoardScript.of(fen, 'colour');
    b.lift('e2').lift('e9', 150).place('e2', 300).wait(900);
    expect(b.moves()).toEqual(['e9e2']);
    // Red's chariot a2 takes the chariot on e2; a2's sensor still reads it. Black's reply begun
    // after it shows the capture over: a2 is the stuck point.
    b.lift('e2', 500).place('e2', 300, 'r').wait(600);
    b.move('d9', 'd8').wait(400);
    expect(b.of('retract')).toHaveLength(0);
    expect(b.moves()).toEqual(['e9e2', 'a2e2', 'd9d8']);
    expect(faultsOf(b)).toEqual(['a2']);
    // (One story only: nothing to ask the players.)
    expect(b.of('alert').map((a) => a.alert.kind)).not.toContain('ambiguous');

    // Black's general lifted before the capture is down: no reply seen after it. Once e9 has read
    // empty long enough to be taken for dead, both stories are told.
    const c = BoardScript.of(fen, 'colour');
    c.lift('e2').lift('e9', 150).place('e2', 300).wait(900);
    c.lift('e2', 500).lift('d9', 100).place('e2', 200, 'r').wait(2000);
    const doubt = c.of('alert').find((a) => a.alert.kind === 'ambiguous');
    expect(doubt?.alert.message).toContain('e9e2 taken back');
    // (Lifting tells only a2, which may read a chariot no longer there: a general standing unseen on
    // e9 lifted and set back shows nothing, nor does e9 if it is empty.)
    expect(doubt?.alert.check).toEqual(['a2']);
    expect(c.of('retract')).toHaveLength(0);
    // The piece on e2 goes along its rank, as a chariot does and the horse never could: once that
    // stands 4 s, the takeback is no story, and the chariot's capture from a2 is recorded.
    c.place('d8', 500).wait(400);
    c.move('e2', 'h2').wait(5000);
    expect(c.of('retract')).toHaveLength(0);
    expect(c.moves()).toEqual(['e9e2', 'a2e2', 'd9d8', 'e2h2']);
    expect(faultsOf(c)).toEqual(['a2']);
  });

  it('a capture from a stuck point that the opponent answers at once is the capture', () => {
    // Master game 518, colour: Black's soldier g5 took on g4 with g5's sensor stuck; Red lifted
    // the chariot to take back 660 ms later. The board was never still for the 2.5 s that would
    // show the capture's point stuck: the reader named the chariot's own point dead instead.
    const b = BoardScript.of('3k5/9/9/9/6p2/6PR1/9/9/9/4K4 b - - 0 1', 'colour');
    b.lift('g4').place('g4', 250, 'b');
    b.lift('h4', 600).wait(300);
    expect(
      b
        .of('alert')
        .filter((a) => a.alert.kind === 'sensor_fault')
        .map((a) => a.alert.square),
    ).toEqual(['g5']);
    b.lift('g4', 100).place('g4', 150, 'r').wait(1500);
    expect(b.moves()).toEqual(['g5g4', 'h4g4']);
  });

  it('is named at once when the players lift the pieces the alert asks for', () => {
    // Random game 3 of seed 1, occupancy: b9's sensor stuck under a piece that moves. Nothing in
    // the play that follows tells the points apart; the players, lifting what the alert names,
    // do: the point that does not notice is b9.
    const passive = replayRow('dead_used', 'occupancy', 1, 3);
    expect(passive.classification.deadNamed).toBe(false);
    const answered = replayRow('dead_used', 'occupancy', 1, 3, 'answering');
    const asked = answered.emitted.filter((e) => e.type === 'alert' && e.alert.check !== undefined);
    expect(asked.length).toBeGreaterThan(0);
    expect(answered.options.real?.answers?.length).toBeGreaterThan(0);
    expect(answered.classification.deadNamed).toBe(true);
    // (Alerted: the record waits for the players' answer, the doubt said meanwhile.)
    expectAlertedThenRight(answered);
  });

  it('is named, and the game read right, once the players say which candidate they played', () => {
    // Random game 13 of seed 1, occupancy: neither later play nor lifting the pieces the alert
    // names tells the points apart here. The players know where they set the piece down: they
    // choose that candidate 1.5 s after the alert (game/resolve), and it is recorded.
    expect(replayRow('dead_used', 'occupancy', 1, 13).classification.deadNamed).toBe(false);
    expect(replayRow('dead_used', 'occupancy', 1, 13, 'answering').classification.deadNamed).toBe(false);
    const chosen = replayRow('dead_used', 'occupancy', 1, 13, 'choosing');
    expect(chosen.choices).toHaveLength(1);
    const choice = chosen.choices[0]!;
    if (!('candidate' in choice)) throw new Error('a candidate chosen, not a correction');
    const doubt = chosen.emitted.find((e) => e.type === 'alert' && e.alert.sensors !== undefined);
    expect(doubt?.type === 'alert' && doubt.alert.sensors?.length).toBeGreaterThan(1);
    const dead = makeSquareName(chosen.options.real!.dead!.square);
    expect(doubt?.type === 'alert' && doubt.alert.sensors?.[choice.candidate]).toBe(dead);
    // Named as the chosen world's reading next comes to rest (a piece in the hand is read first: the
    // doubt is asked while the mover's piece is still held beside the opponent's, so that is later).
    const named = chosen.emitted.find(
      (e) => e.type === 'alert' && e.alert.kind === 'sensor_fault' && e.alert.square === dead,
    );
    expect(named?.t).toBeGreaterThanOrEqual(choice.t);
    expect(named!.t - choice.t).toBeLessThan(3000);
    expect(chosen.classification.deadNamed).toBe(true);
    // (Alerted: the record waits for the players' answer, the doubt said meanwhile.)
    expectAlertedThenRight(chosen);
  });

  it('a choice is refused when no doubt stands, is no candidate, is meant for another doubt, or play has ruled it out', () => {
    const condition = CONDITIONS.find((c) => c.id === 'dead_used')!;
    const games = randomGames(60, 1);
    const options = rowOptions(condition, games, 'occupancy', 1)[13]!;
    const choice = replayRow('dead_used', 'occupancy', 1, 13, 'choosing').choices[0]!;
    if (!('candidate' in choice)) throw new Error('a candidate chosen, not a correction');
    const { t, candidate } = choice;
    const play = physicalPlay(games[13]!.start, games[13]!.moves, options);
    const answers: unknown[] = [];
    const answer = (tracker: Tracker, candidate: number, sensor?: Square) => {
      const r = tracker.choose(candidate, sensor);
      answers.push(r.ok ? 'ok' : r.error.code);
    };
    const dead = options.real!.dead!.square;
    // (Any other point: an answer naming it for this candidate was meant for another doubt.)
    const other = dead === 0 ? 1 : 0;
    const run = runSensorEvents(games[13]!.start, play.events, {
      sensing: 'occupancy',
      actions: [
        { t: 10, run: (tracker) => answer(tracker, 0) },
        { t, run: (tracker) => answer(tracker, 63) },
        { t, run: (tracker) => answer(tracker, candidate, other) },
        { t, run: (tracker) => answer(tracker, candidate, dead) },
        // (Before the doubt is resolved: the other worlds have ended with the first choice.)
        { t, run: (tracker) => answer(tracker, candidate === 0 ? 1 : 0) },
      ],
    });
    expect(run.ok).toBe(true);
    expect(answers.slice(0, 3)).toEqual(['no_doubt', 'bad_candidate', 'stale']);
    expect(answers[3]).toBe('ok');
    expect(answers[4]).toBe('contradicted');
  });

  it('a capture nobody saw, put right by the players, names the dead point it hid', () => {
    // Random game 10 of seed 1, colour: g8 reads empty; Black's horse went f6 → g8, read as a
    // capture nobody saw on e4 (a colour sensor under a capturer may read the piece below). The
    // alert says so; the players, 1.5 s later, give the moves they played from there (game/correct).
    // The record is put right, and g8, reading empty under the horse, named.
    expect(replayRow('dead_used', 'colour', 1, 10).classification.deadNamed).toBe(false);
    const judged = replayRow('dead_used', 'colour', 1, 10, 'choosing');
    const fix = judged.choices[0]!;
    expect(fix).toMatchObject({ ply: 46, line: ['f6g8', 'i2i3'] });
    const at = (e: { t: number }) => e.t === fix.t;
    const recorded = judged.emitted.filter((e) => at(e) && (e.type === 'move' || e.type === 'retract'));
    expect(recorded.map((e) => (e.type === 'move' ? e.iccs : e.type))).toEqual([
      'retract',
      'retract',
      'f6g8',
      'i2i3',
    ]);
    const named = judged.emitted.find(
      (e) => e.type === 'alert' && e.alert.kind === 'sensor_fault' && e.alert.square === 'g8',
    );
    // At once: the players say the horse stands on g8, which reads empty.
    expect(named!.t).toBe(fix.t);
    expect(judged.classification.deadNamed).toBe(true);
    expect(judged.classification.reader).toEqual(judged.classification.game);
  });

  it('a correction is refused whole: a ply the record lacks, an illegal move, a doubt standing', () => {
    const condition = CONDITIONS.find((c) => c.id === 'dead_used')!;
    const games = randomGames(60, 1);
    const options = rowOptions(condition, games, 'occupancy', 1)[13]!;
    const choice = replayRow('dead_used', 'occupancy', 1, 13, 'choosing').choices[0]!;
    const play = physicalPlay(games[13]!.start, games[13]!.moves, options);
    const answers: string[] = [];
    const correct = (tracker: Tracker, ply: number, iccs: string) => {
      const plies = tracker.game.moves.length;
      const move = parseIccs(iccs);
      if (!move.ok) throw new Error(move.error.message);
      const r = tracker.correct(ply, [move.value]);
      answers.push(r.ok ? 'ok' : r.error.code);
      expect(tracker.game.moves.length).toBe(plies);
    };
    runSensorEvents(games[13]!.start, play.events, {
      sensing: 'occupancy',
      actions: [
        { t: 10_000, run: (tracker) => correct(tracker, tracker.game.moves.length + 2, 'h2e2') },
        { t: 10_000, run: (tracker) => correct(tracker, 1, 'a0a5') },
        // (While the doubt over which sensor is dead stands.)
        { t: choice.t, run: (tracker) => correct(tracker, 1, 'h2e2') },
      ],
    });
    expect(answers).toEqual(['bad_ply', 'illegal_move', 'doubt']);
  });

  it('a piece that may have gone onto it is not taken back and put again, over and over', () => {
    // Generated play that once made the reader commit a capture, take it back as "moved on" to
    // the dead point, and commit it again, forever, on one board (random game 41 of seed 1, the
    // dead-sensor row, colour sensing): it now reads the game to its end.
    const judged = replayRow('dead_used', 'colour', 1, 41);
    expect(judged.started).toBe(true);
    expect(judged.classification.kind).not.toBe('silent');
  });
});

describe('a board read again', () => {
  /** Black's cannon on h7 stands on a sensor that dies; Red moves, then the cannon goes to e7. */
  function deadUnderCannon(options: { resync?: boolean } = {}): BoardScript {
    const b = BoardScript.of(undefined, 'occupancy', options);
    b.move('h2', 'e2').wait(800).move('b9', 'c7').wait(800);
    b.lift('h7').wait(700); // (the sensor dies: it reads empty from now on)
    b.move('a0', 'a1').wait(600);
    b.place('e7', 0, 'x').wait(3000); // (the cannon leaves h7 unseen and lands on e7)
    return b;
  }

  it('reads the moves the board shows from the record when nothing else fits it, and says so', () => {
    const b = deadUnderCannon();
    expect(b.moves()).toEqual(['h2e2', 'b9c7', 'a0a1', 'h7e7']);
    const said = b.of('alert').find((a) => a.alert.message.includes('not seen as they were made'));
    expect(said?.alert).toMatchObject({ kind: 'ambiguous', candidates: [['a0a1', 'h7e7']] });
    // (Without it the reader is lost from the cannon's first move on.)
    expect(deadUnderCannon({ resync: false }).moves()).toEqual(['h2e2', 'b9c7']);
  });

  it('records the first of worlds that play cannot tell apart, in doubt, and reads on', () => {
    const b = BoardScript.of(undefined, 'occupancy');
    b.move('h2', 'e2').wait(800);
    // Black's cannon goes h7 → i7, whose sensor never reads: nobody sees it land (h8 reads the same).
    b.lift('h7').wait(300).press('black').wait(600);
    b.move('h0', 'g2').wait(800);
    b.place('i8', 0, 'x').wait(800); // (on from i7 to i8: from i7 or h8, the same position)
    b.move('i0', 'h0').wait(800).move('c6', 'c5').wait(800);
    expect(b.moves()).toEqual(['h2e2', 'h7i7', 'h0g2', 'i7i8', 'i0h0', 'c6c5']);
    const doubt = b.of('alert').find((a) => a.alert.message.includes('play has not told it from'));
    expect(doubt?.alert).toMatchObject({
      kind: 'ambiguous',
      // (What each world read until play stopped telling them apart.)
      candidates: [
        ['h7i7', 'h0g2', 'i7i8', 'i0h0'],
        ['h7h8', 'h0g2', 'h8i8', 'i0h0'],
      ],
      sensors: ['i7', 'h8'],
    });
    expect(
      b
        .of('alert')
        .filter((a) => a.alert.kind === 'sensor_fault')
        .map((a) => a.alert.square),
    ).toEqual(['i7']);
    // Play goes on, read as ever; the doubt is over with the next move read.
    b.move('g3', 'g4').wait(800);
    expect(b.moves().at(-1)).toBe('g3g4');
    const ended = b.of('alertCleared').filter((e) => e.kind === 'ambiguous' && e.t > doubt!.t);
    expect(ended.length).toBeGreaterThan(0);
    // The players may still say it was the other: the record is put right, its point named.
    expect(b.tracker.choose(1)).toEqual({
      ok: true,
      value: { line: ['h7h8', 'h0g2', 'h8i8', 'i0h0'], square: 'h8' },
    });
    b.wait(500);
    expect(b.moves()).toEqual(['h2e2', 'h7h8', 'h0g2', 'h8i8', 'i0h0', 'c6c5', 'g3g4']);
    expect(
      b
        .of('alert')
        .filter((a) => a.alert.kind === 'sensor_fault')
        .map((a) => a.alert.square),
    ).toEqual(['i7', 'h8']);
    b.move('a9', 'a8').wait(800);
    expect(b.moves().at(-1)).toBe('a9a8');
  });
});

describe('lost frames', () => {
  // Red takes the cannon back to h2; the frame that showed it set down is lost. The board's
  // heartbeat shows it 400 ms later, and 60 ms after that (or 20, within a bounce: master 192,
  // 850) Red lifts it again to play it anew.
  it.each([60, 20])(
    'a takeback only a heartbeat after a gap shows is read, though it stood %i ms after it',
    (rest) => {
      const b = BoardScript.of(undefined, 'occupancy');
      b.move('h2', 'e2').wait(800).press('red').wait(400);
      b.lift('e2')
        .wait(200)
        .lost((s) => s.place('h2'))
        .wait(400)
        .heartbeat()
        .wait(rest);
      b.lift('h2').wait(300);
      expect(b.of('retract').map((r) => r.ply)).toEqual([1]);
      b.place('e2').wait(1000);
      expect(b.moves()).toEqual(['h2e2']);
    },
  );

  it('a piece passing a point, seen there by the first frame after a gap, is not a move there', () => {
    // Black's chariot slides i9 → i8 → i7; the frame of its lift is lost; the first one after
    // the gap shows it on i8, 15 ms (within a bounce) or 60 ms before it moves on: the gap says
    // nothing of how long it stood there.
    for (const rest of [15, 60]) {
      const b = BoardScript.of(undefined, 'occupancy');
      b.move('h2', 'e2').wait(800).press('red').wait(400);
      b.lost((s) => s.lift('i9')).wait(100);
      b.place('i8').wait(rest).lift('i8').wait(60).place('i7').wait(1000);
      expect(b.moves(), `rest ${rest}`).toEqual(['h2e2', 'i9i7']);
      expect(b.of('retract'), `rest ${rest}`).toEqual([]);
    }
  });
});

describe('what the players are asked to do when a sensor may read empty under its piece', () => {
  it('asks them to say which candidate, not to lift pieces that cannot tell', () => {
    // Red's cannon h2 → e2, e2's sensor dead (reading empty): the cannon is never seen landing, and
    // Black replies. It may stand on any point it can reach that reads empty; lifting it from where
    // it stands shows nothing, and the other points have no piece to lift.
    const b = BoardScript.of(undefined, 'occupancy');
    b.lift('h2').wait(1500);
    b.move('h9', 'g7').wait(3000);
    const doubt = b.of('alert').find((a) => a.alert.kind === 'ambiguous' && a.alert.sensors !== undefined);
    expect(doubt?.alert.sensors).toEqual(expect.arrayContaining(['e2', 'f2']));
    expect(doubt?.alert.check).toBeUndefined();
    expect(doubt?.alert.message).toMatch(/To tell at once, say which candidate was played$/);
  });
});

describe('a capture lost frames may have hidden', () => {
  // Red lifts the cannon on h2, which can take the horse on h9. Frames are lost, then the board
  // holds still: the cannon may have taken on h9 in the gap (the horse taken off unseen, the cannon
  // set down on its point), or it is still in the hand. Nothing but Black's reply or Red's clock
  // tells, and at the end of a game nobody replies: said while it may be so.
  const ambiguous = (b: BoardScript) => b.of('alert').filter((a) => a.alert.kind === 'ambiguous');

  it('says so once the board has held still a second after the gap, and reads the reply', () => {
    const b = BoardScript.of(undefined, 'occupancy');
    b.lift('h2').wait(300);
    b.lost((s) => s.lift('h9').wait(200).place('h9', 100)).wait(300);
    b.heartbeat().wait(900);
    expect(ambiguous(b)).toEqual([]);
    b.wait(200);
    expect(ambiguous(b).map((a) => a.alert.candidates)).toEqual([[['h2h9']]]);
    expect(ambiguous(b)[0]!.alert.message).toMatch(
      /frames from the board were lost while the red cannon from h2/,
    );
    b.move('b9', 'c7').wait(1000);
    expect(b.moves()).toEqual(['h2h9', 'b9c7']);
  });

  it('says nothing of a piece merely held, or with no capture to make', () => {
    // The same cannon held 5 s with every frame delivered.
    const held = BoardScript.of(undefined, 'occupancy');
    held.lift('h2').wait(5000);
    expect(ambiguous(held)).toEqual([]);
    // A chariot that can take nothing, held across lost frames.
    const chariot = BoardScript.of(undefined, 'occupancy');
    chariot.lift('a0').wait(300);
    chariot
      .lost((s) => s.wait(600))
      .heartbeat()
      .wait(3000);
    expect(ambiguous(chariot)).toEqual([]);
  });
});

describe('a correction by the players', () => {
  /** Red's chariot goes i0 → i1, then on to d1; the reader is left lost (nothing reads it again). */
  function chariotVia(i1Reads: boolean): BoardScript {
    const b = BoardScript.of(undefined, 'occupancy', { resync: false });
    b.lift('i0').wait(300);
    if (i1Reads) b.place('i1').wait(600);
    else b.wait(600); // (i1's sensor never reads the chariot set down there)
    b.move('h9', 'g7').wait(800);
    if (i1Reads) b.lift('i1').place('d1', 300).wait(3000);
    else b.place('d1', 300, 'x').wait(3000);
    const line = ['i0i1', 'h9g7', 'i1d1'].map((m) => {
      const move = parseIccs(m);
      if (!move.ok) throw new Error(m);
      return move.value;
    });
    expect(b.tracker.correct(1, line)).toMatchObject({ ok: true });
    b.wait(500);
    expect(b.moves()).toEqual(['i0i1', 'h9g7', 'i1d1']);
    return b;
  }
  const faults = (b: BoardScript) =>
    b.of('alert').flatMap((a) => (a.alert.kind === 'sensor_fault' ? [a.alert.square] : []));

  it('names no point whose piece is in the hand as the players correct the record', () => {
    // Random 1/294 (players choosing): the record is corrected while the mover has just lifted the
    // piece the corrected line set down (there, to take its move back; here, to straighten it). Its
    // point read that piece land: it reads empty now because the piece is in the hand, not because
    // its sensor is dead.
    const b = BoardScript.of(undefined, 'occupancy');
    b.move('h2', 'e2').wait(800);
    expect(b.moves()).toEqual(['h2e2']);
    b.lift('e2').wait(100);
    const line = [parseIccs('h2e2')].map((m) => {
      if (!m.ok) throw new Error('h2e2');
      return m.value;
    });
    expect(b.tracker.correct(1, line)).toMatchObject({ ok: true });
    b.place('e2', 300).wait(1500);
    expect(faults(b)).toEqual([]);
    expect(b.moves()).toEqual(['h2e2']);
  });

  it('names a point a piece of its line was set down on and left, that never read it', () => {
    expect(faults(chariotVia(false))).toEqual(['i1']);
    // (A point that read the piece set down there is no dead one.)
    expect(faults(chariotVia(true))).toEqual([]);
  });
});

describe('a piece that may stand on a dead point', () => {
  /** The sensor on e2 reads occupied from the start (named at setup); Red lifts the elephant on c0. */
  function elephantHeld(ms: number): BoardScript {
    const game = Game.start(undefined);
    if (!game.ok) throw new Error(game.error.message);
    const cells = [...expectedCells(game.value.position, 'occupancy')];
    cells[parseSquare('e2')!] = 'x';
    const b = new BoardScript(game.value, 'occupancy', {}, cells.join(''));
    b.wait(1500).heartbeat().wait(500);
    return b.lift('c0').wait(ms);
  }
  const said = (b: BoardScript) =>
    b.of('alert').filter((a) => a.alert.message.includes('off the board a while'));

  it('is said once it has been off its point a while, and the clock records it there', () => {
    expect(said(elephantHeld(2000))).toEqual([]);
    const b = elephantHeld(2600);
    expect(said(b).map((a) => a.alert)).toEqual([
      expect.objectContaining({ kind: 'ambiguous', candidates: [['c0e2']] }),
    ]);
    b.press('red').wait(1500);
    expect(b.moves()).toEqual(['c0e2']);
  });
});

describe('a capture occupancy cannot tell, play going on', () => {
  it('is recorded as its first reading, in doubt, and changed when the board later shows the other', () => {
    // The red horse on f4 takes on e6 or g6 (its victim's point never reads empty): nothing tells
    // which. Black and Red move on; the record cannot wait for ever.
    const b = BoardScript.of('4k4/9/9/4p1p2/9/5N3/9/9/9/4K4 w - - 0 1', 'occupancy');
    b.swapCapture('f4', 'g6').wait(600);
    b.move('e9', 'd9').wait(600).move('e0', 'e1').wait(600).move('d9', 'e9').wait(1500);
    expect(b.moves()).toEqual(['f4e6', 'e9d9', 'e0e1', 'd9e9']);
    const doubt = b
      .of('alert')
      .filter((a) => a.alert.kind === 'ambiguous' && a.alert.candidates?.[0]?.[0] === 'f4e6');
    expect(doubt.length).toBeGreaterThan(0);
    // The pawn on e6 moves: it was g6 that was taken. The record is put right from the capture on.
    b.move('e1', 'e0').wait(600).move('e6', 'e5').wait(6000);
    expect(b.moves()).toEqual(['f4g6', 'e9d9', 'e0e1', 'd9e9', 'e1e0', 'e6e5']);
    const said = b.of('alert').find((a) => a.alert.message.includes('the record from ply 1 on changed to'));
    expect(said?.alert).toMatchObject({
      kind: 'ambiguous',
      candidates: [['f4g6', 'e9d9', 'e0e1', 'd9e9', 'e1e0', 'e6e5']],
    });
  });
});
